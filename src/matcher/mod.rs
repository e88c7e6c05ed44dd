//! matcher
