//! Conversions between the formats as new files: the level at the cursor as a `.box`
//! file (one box, one goal), the `.box` maze at the cursor as an XSB level. What the
//! new file is called is the server's business; this says how to name it.

use super::symbols::level_name;
use super::LevelFile;
use crate::ide::FileView;
use crate::level::{level_to_box, maze_to_xsb};

/// A new file to create beside the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    pub title: String,
    /// What goes after the document's name: `level-3` (`name-level-3.box`).
    pub suffix: String,
    /// The new file's extension: `box` or `xsb`.
    pub extension: &'static str,
    pub text: String,
}

/// The level at `offset` as a `.box` file, when it can be one (one box, one goal,
/// the player, box and goal on three cells, no structural error).
pub fn level_conversion(file: &LevelFile, offset: usize) -> Option<Conversion> {
    let level = file.level_at(offset)?;
    let text = level_to_box(file.text, level)?;
    Some(Conversion {
        title: format!("Convert {} to .box", level_name(level)),
        suffix: format!("level-{}", level.index),
        extension: "box",
        text,
    })
}

/// The maze at `offset` as an XSB level, when it has a playable grid.
pub fn maze_conversion(file: &FileView, offset: usize) -> Option<Conversion> {
    let (maze, _) = file.maze_at(offset)?;
    let text = maze_to_xsb(file.text, maze, false)?;
    Some(Conversion {
        title: format!("Convert Maze #{} to XSB", maze.index),
        suffix: format!("maze-{}", maze.index),
        extension: "xsb",
        text,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;
    use crate::ide::fixture::Fixture as BoxFixture;

    fn check(conversion: Option<Conversion>, expect: Expect) {
        let shown = conversion.map_or("(none)".to_string(), |c| {
            format!("{} → *-{}.{}\n{}", c.title, c.suffix, c.extension, c.text)
        });
        expect.assert_eq(&shown);
    }

    #[test]
    fn a_one_box_level_becomes_a_box_file() {
        let text = "; Many\n\n######\n#@$$..#\n#######\n\n; One\n\n#####\n#@$.#\n#####\n";
        let fixture = Fixture::new(text);
        check(level_conversion(&fixture.view(), 3), expect!["(none)"]);
        check(
            level_conversion(&fixture.view(), 40),
            expect![[r#"
                Convert One to .box → *-level-2.box
                ; One
                3 5
                #####
                #SBT#
                #####
                0 0
            "#]],
        );
    }

    #[test]
    fn a_maze_becomes_a_level() {
        let text = "1 3\nSBT\n1 3\nSxT\n1 4\nS.BT\n; solution: eE\n0 0\n";
        let fixture = BoxFixture::solved(text);
        check(
            maze_conversion(&fixture.view(), 5),
            expect![[r#"
            Convert Maze #1 to XSB → *-maze-1.xsb
            ; 1

            #####
            #@$.#
            #####
        "#]],
        );
        check(maze_conversion(&fixture.view(), 9), expect!["(none)"]);
        check(
            maze_conversion(&fixture.view(), 17),
            expect![[r#"
            Convert Maze #3 to XSB → *-maze-3.xsb
            ; 3

            ######
            #@ $.#
            ######
            Solution: rR
        "#]],
        );
    }
}
