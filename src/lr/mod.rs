//! lr
