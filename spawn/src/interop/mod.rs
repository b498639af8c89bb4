//! What sits on the front: std's extension traits ([`os`]), conversions from std's own
//! `Command` and `Stdio` ([`from_std`]), and the event-loop adapters. Each is built on the
//! front's API and nothing below it names them.

mod from_std;
pub mod os;
/// Waiting and stdio on async-io's reactor, for any executor (the `async-io` feature).
#[cfg(feature = "async-io")]
pub mod async_io;
/// Waiting and stdio on a tokio runtime (the `tokio` feature).
#[cfg(feature = "tokio")]
pub mod tokio;
// What both adapters share: taking a `Child` over, and a waiting thread where there is no
// exit notifier.
#[cfg(any(feature = "tokio", feature = "async-io"))]
mod async_adopt;
#[cfg(any(feature = "tokio", feature = "async-io"))]
mod async_thread;

pub use from_std::FromStdError;
