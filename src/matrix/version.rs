//! Release numbers, as the claims compare them: [`crate::version`], under the name the
//! matrix code has always used.

pub use crate::version::{covers, Release, Upper, Version};
