//! What is known of one maze's solve, as one flat type, and its one-line summary.

use std::sync::Arc;

use crate::maze::plural;
use crate::solver::{Analysis, Outcome, Reason, Solution};

/// Per cell of a maze (row-major): free, but the box can never get from there to `T`.
pub type DeadSquares = Arc<[bool]>;

/// What the server knows of a maze right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MazeStatus {
    /// Structural errors: nothing to solve.
    Invalid,
    Solving,
    /// Solved; `dead` when the dead squares are known.
    Solved {
        solution: Arc<Solution>,
        dead: Option<DeadSquares>,
    },
    Unsolvable {
        reason: Reason,
        dead: Option<DeadSquares>,
    },
    /// Over the configured cell limit: not solved.
    TooLarge {
        cells: usize,
        limit: usize,
    },
    /// Stopped at the configured time limit.
    TimedOut {
        ms: u64,
    },
    /// The solver itself failed (a bug): the panic's message.
    Failed(Arc<str>),
}

impl MazeStatus {
    /// The status of a finished solve with its dead squares.
    pub fn from_analysis(analysis: Analysis) -> MazeStatus {
        let dead = Some(Arc::from(analysis.dead));
        match analysis.outcome {
            Outcome::Solved(solution) => MazeStatus::Solved {
                solution: Arc::new(solution),
                dead,
            },
            Outcome::Unsolvable(reason) => MazeStatus::Unsolvable { reason, dead },
        }
    }

    /// The status of a finished solve whose dead squares are not known yet.
    pub fn from_outcome(outcome: Outcome) -> MazeStatus {
        match outcome {
            Outcome::Solved(solution) => MazeStatus::Solved {
                solution: Arc::new(solution),
                dead: None,
            },
            Outcome::Unsolvable(reason) => MazeStatus::Unsolvable { reason, dead: None },
        }
    }

    /// Whether this is a finished solve still without its dead squares.
    pub fn lacks_dead(&self) -> bool {
        matches!(
            self,
            MazeStatus::Solved { dead: None, .. } | MazeStatus::Unsolvable { dead: None, .. }
        )
    }

    /// Records the dead squares of a finished solve (other statuses have none).
    pub fn set_dead(&mut self, squares: DeadSquares) {
        if let MazeStatus::Solved { dead, .. } | MazeStatus::Unsolvable { dead, .. } = self {
            *dead = Some(squares);
        }
    }

    pub fn solution(&self) -> Option<&Solution> {
        match self {
            MazeStatus::Solved { solution, .. } => Some(solution),
            _ => None,
        }
    }

    /// The dead squares, when they are known.
    pub fn dead(&self) -> Option<&[bool]> {
        match self {
            MazeStatus::Solved { dead, .. } | MazeStatus::Unsolvable { dead, .. } => {
                dead.as_deref()
            }
            _ => None,
        }
    }

    /// Whether the solve has finished one way or another.
    pub fn is_final(&self) -> bool {
        !matches!(self, MazeStatus::Solving)
    }
}

/// The short summary shown in inlay hints, code lenses and symbol details.
pub fn summary(status: &MazeStatus) -> Option<String> {
    Some(match status {
        MazeStatus::Invalid => return None,
        MazeStatus::Solving => "solving…".to_string(),
        MazeStatus::Solved { solution, .. } => counts(solution),
        MazeStatus::Unsolvable { .. } => "unsolvable".to_string(),
        MazeStatus::TooLarge { .. } | MazeStatus::TimedOut { .. } => {
            "not solved: too large".to_string()
        }
        MazeStatus::Failed(_) => "not solved: internal error".to_string(),
    })
}

/// `6 pushes · 28 moves`.
pub fn counts(solution: &Solution) -> String {
    format!(
        "{} · {}",
        plural(solution.pushes, "push", "pushes"),
        plural(solution.moves, "move", "moves")
    )
}
