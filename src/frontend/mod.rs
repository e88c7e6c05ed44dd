//! Lark front-end.
