//! The user and group ids a child takes (`CommandExt::uid`/`gid`/`groups`); the child's
//! calls that apply them are `child_side/ids/`.

/// The ids a child takes, prepared in the parent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ids {
    pub uid: Option<libc::uid_t>,
    pub gid: Option<libc::gid_t>,
    pub groups: Option<Box<[libc::gid_t]>>,
}

impl Ids {
    /// Whether anything changes.
    pub(crate) fn any(&self) -> bool {
        self.uid.is_some() || self.gid.is_some() || self.groups.is_some()
    }
}
