//! The shared implementation as a load [`Spawner`], one per strategy.

use std::io;
use std::path::Path;

use crate::spawn::os::unix::process::ExitStatusExt;
use crate::spawn::{Child, Command, Strategy};

use super::load::{Ended, Pipes, Running, Spawner};

/// Starts the program through `spawnmatrix::spawn::Command` with a forced strategy.
pub struct SharedSpawn(pub Strategy);

struct SharedChild(Child);

impl Running for SharedChild {
    fn pid(&self) -> u32 {
        self.0.id()
    }

    fn wait(mut self: Box<Self>) -> io::Result<Ended> {
        let status = self.0.wait()?;
        match (status.code(), status.signal()) {
            (Some(code), _) => Ok(Ended::Code(code)),
            (None, Some(sig)) => Ok(Ended::Signal(sig)),
            (None, None) => Err(io::Error::other(format!(
                "unexpected wait status {status:?}"
            ))),
        }
    }
}

impl Spawner for SharedSpawn {
    fn start(&self, program: &Path, pipes: Pipes) -> io::Result<Box<dyn Running>> {
        let child = Command::new(program)
            .env_clear()
            .fd(0, pipes.stdin)
            .fd(1, pipes.stdout)
            .strategy(self.0)
            .spawn()?;
        Ok(Box::new(SharedChild(child)))
    }
}
