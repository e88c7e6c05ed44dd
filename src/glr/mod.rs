//! glr
