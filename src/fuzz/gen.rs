//! Random sequences, from a seed. proptest supplies the strategies and the shrinking; the seed
//! goes into a ChaCha generator so `--seed S` replays a run exactly.

use proptest::prelude::*;
use proptest::strategy::{NewTree, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::model::{Action, Attrs, FixtureFd, Node, OpenMode, PathRef, Pgroup, Sequence, Sig};

/// An fd far above any soft `RLIMIT_NOFILE` this suite runs with: add-time range checks differ
/// between libcs for it.
pub const HUGE_FD: i32 = 1 << 20;

/// The longest action list a sequence gets.
pub const MAX_ACTIONS: usize = 8;

/// An fd an action writes to or closes: mostly small numbers, some fixtures, rarely one the
/// add-time checks refuse (-1, or far above `OPEN_MAX`).
fn fd() -> impl Strategy<Value = i32> {
    prop_oneof![
        24 => 0..10i32,
        16 => prop::sample::select(FixtureFd::ALL.map(FixtureFd::fd).to_vec()),
        1 => prop::sample::select(vec![-1, HUGE_FD]),
    ]
}

/// An fd an action reads from (dup2's source, fchdir): biased towards fds that are open, so
/// more sequences get past their first action.
fn source_fd() -> impl Strategy<Value = i32> {
    prop_oneof![
        8 => 0..3i32,
        16 => prop::sample::select(FixtureFd::ALL.map(FixtureFd::fd).to_vec()),
        6 => 3..10i32,
        1 => prop::sample::select(vec![-1, HUGE_FD]),
    ]
}

fn node() -> impl Strategy<Value = Node> {
    prop::sample::select(vec![
        Node::Root,
        Node::Sub,
        Node::Deeper,
        Node::FileA,
        Node::New,
        Node::Missing,
    ])
}

fn path() -> impl Strategy<Value = PathRef> {
    prop_oneof![
        3 => node().prop_map(PathRef::Fixture),
        1 => prop::sample::select(vec!["sub", "..", "deeper", "a", "new", "nonexistent"])
            .prop_map(|s| PathRef::Relative(s.to_string())),
    ]
}

fn mode() -> impl Strategy<Value = OpenMode> {
    prop::sample::select(vec![
        OpenMode::Read,
        OpenMode::WriteCreate,
        OpenMode::AppendRw,
        OpenMode::Directory,
        OpenMode::CreateExcl,
    ])
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => (fd(), path(), mode(), prop::bool::weighted(0.15)).prop_map(
            |(fd, path, mode, cloexec)| Action::Open { fd, path, mode, cloexec }
        ),
        3 => fd().prop_map(|fd| Action::Close { fd }),
        4 => (source_fd(), fd()).prop_map(|(from, to)| Action::Dup2 { from, to }),
        2 => path().prop_map(|path| Action::Chdir { path }),
        2 => source_fd().prop_map(|fd| Action::Fchdir { fd }),
        1 => prop_oneof![3..12i32, Just(FixtureFd::PipeWrite.fd())]
            .prop_map(|low| Action::Closefrom { low }),
    ]
}

fn sig() -> impl Strategy<Value = Sig> {
    prop::sample::select(vec![
        Sig::SIGUSR1,
        Sig::SIGUSR2,
        Sig::SIGHUP,
        Sig::SIGTERM,
        Sig::SIGALRM,
    ])
}

fn sigset() -> impl Strategy<Value = Vec<Sig>> {
    prop::collection::btree_set(sig(), 0..4).prop_map(|s| s.into_iter().collect())
}

fn attrs() -> impl Strategy<Value = Attrs> {
    let pgroup = prop_oneof![
        4 => Just(Pgroup::New),
        2 => Just(Pgroup::Parent),
        1 => Just(Pgroup::Foreign),
    ];
    (
        prop::option::weighted(0.3, sigset()),
        prop::option::weighted(0.3, sigset()),
        prop::option::weighted(0.25, pgroup),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(sigmask, sigdefault, pgroup, setsid)| Attrs {
            sigmask,
            sigdefault,
            pgroup,
            setsid,
        })
}

/// The strategy for whole sequences.
pub fn sequence() -> impl Strategy<Value = Sequence> {
    (
        prop::collection::btree_set(prop::sample::select(FixtureFd::ALL.to_vec()), 0..3),
        prop::collection::vec(action(), 0..=MAX_ACTIONS),
        attrs(),
    )
        .prop_map(|(inherit, actions, attrs)| Sequence {
            inherit: inherit.into_iter().collect(),
            actions,
            attrs,
        })
}

/// Sequences drawn one after another from one seed: the n-th value depends only on the seed
/// and n.
pub struct Generator {
    runner: TestRunner,
}

/// One drawn sequence together with its shrink tree.
pub type Tree = <proptest::strategy::BoxedStrategy<Sequence> as Strategy>::Tree;

impl Generator {
    pub fn new(seed: u64) -> Self {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
        Generator {
            runner: TestRunner::new_with_rng(Config::default(), rng),
        }
    }

    /// The next sequence, as a tree that can be shrunk towards a simpler one.
    pub fn next_tree(&mut self) -> NewTree<proptest::strategy::BoxedStrategy<Sequence>> {
        sequence().boxed().new_tree(&mut self.runner)
    }

    /// The next sequence.
    pub fn next_sequence(&mut self) -> Sequence {
        match self.next_tree() {
            Ok(tree) => tree.current(),
            // The strategies have no filters, so generation cannot be rejected.
            Err(_) => Sequence {
                inherit: Vec::new(),
                actions: Vec::new(),
                attrs: Attrs::default(),
            },
        }
    }
}

/// Shrinks `tree` while `still_fails` holds, the standard proptest loop: simplify, keep the
/// simpler value if it still fails, otherwise step back. Returns the simplest failing value.
pub fn shrink(mut tree: Tree, mut still_fails: impl FnMut(&Sequence) -> bool) -> Sequence {
    let mut best = tree.current();
    let mut steps = 0;
    while steps < 500 && tree.simplify() {
        steps += 1;
        let candidate = tree.current();
        if still_fails(&candidate) {
            best = candidate;
        } else if !tree.complicate() {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::Generator;

    #[rstest]
    #[case(0)]
    #[case(1)]
    #[case(0xdead_beef)]
    fn same_seed_same_sequences(#[case] seed: u64) {
        let a: Vec<_> = {
            let mut g = Generator::new(seed);
            (0..50).map(|_| g.next_sequence()).collect()
        };
        let mut g = Generator::new(seed);
        let b: Vec<_> = (0..50).map(|_| g.next_sequence()).collect();
        assert_eq!(a, b);
    }

    #[rstest]
    #[case(0, 1)]
    #[case(7, 8)]
    fn different_seeds_differ(#[case] s1: u64, #[case] s2: u64) {
        let mut g1 = Generator::new(s1);
        let mut g2 = Generator::new(s2);
        let a: Vec<_> = (0..20).map(|_| g1.next_sequence()).collect();
        let b: Vec<_> = (0..20).map(|_| g2.next_sequence()).collect();
        assert_ne!(a, b);
    }
}
