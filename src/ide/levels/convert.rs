//! Conversions between the formats as new files: the level at the cursor as a `.box`
//! file (one box, one goal), the `.box` maze at the cursor as an XSB level. What the
//! new file is called is the server's business; this says how to name it.

use super::symbols::level_name;
use super::LevelFile;
use crate::ide::FileView;
use crate::level::{level_to_box, maze_to_xsb};

/// A new file to create beside the document: what it is offered as, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    pub offer: Offer,
    pub text: String,
}

/// A conversion as offered, before its text is made: a client that resolves code
/// actions asks for the text only when the conversion is chosen (a 2000×2000 maze's
/// XSB is 4 MB, and the offer goes out on every move of the cursor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub title: String,
    /// What goes after the document's name: `level-3` (`name-level-3.box`).
    pub suffix: String,
    /// The new file's extension: `box` or `xsb`.
    pub extension: &'static str,
}

/// The level at `offset` as a `.box` file, when it can be one (one box, one goal,
/// the player, box and goal on three cells, no structural error).
pub fn level_conversion(file: &LevelFile, offset: usize) -> Option<Conversion> {
    let level = file.level_at(offset)?;
    let text = level_to_box(file.text, level)?;
    let offer = Offer {
        title: format!("Convert {} to .box", level_name(level)),
        suffix: format!("level-{}", level.index),
        extension: "box",
    };
    Some(Conversion { offer, text })
}

/// What [`level_conversion`] offers at `offset`. Whether a level converts is known only
/// by converting it, so this makes the text (a level is small) and drops it.
pub fn level_offer(file: &LevelFile, offset: usize) -> Option<Offer> {
    level_conversion(file, offset).map(|conversion| conversion.offer)
}

/// The maze at `offset` as an XSB level, when it has a playable grid.
pub fn maze_conversion(file: &FileView, offset: usize) -> Option<Conversion> {
    let offer = maze_offer(file, offset)?;
    let (maze, _) = file.maze_at(offset)?;
    let text = maze_to_xsb(file.text, maze, false)?;
    Some(Conversion { offer, text })
}

/// What [`maze_conversion`] offers at `offset`, without making the text: any maze with
/// a playable grid converts.
pub fn maze_offer(file: &FileView, offset: usize) -> Option<Offer> {
    let (maze, _) = file.maze_at(offset)?;
    maze.grid.as_ref()?;
    Some(Offer {
        title: format!("Convert Maze #{} to XSB", maze.index),
        suffix: format!("maze-{}", maze.index),
        extension: "xsb",
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
            let Offer {
                title,
                suffix,
                extension,
            } = c.offer;
            format!("{title} → *-{suffix}.{extension}\n{}", c.text)
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

    #[test]
    fn an_offer_is_its_conversion_without_the_text() {
        let mazes = "1 3\nSBT\n1 3\nSxT\n1 4\nS.BT\n; solution: eE\n0 0\n";
        let fixture = BoxFixture::solved(mazes);
        for offset in 0..=mazes.len() {
            let made = maze_conversion(&fixture.view(), offset).map(|c| c.offer);
            assert_eq!(maze_offer(&fixture.view(), offset), made, "at {offset}");
        }
        let levels = "; Many\n\n######\n#@$$..#\n#######\n\n; One\n\n#####\n#@$.#\n#####\n";
        let fixture = Fixture::new(levels);
        for offset in 0..=levels.len() {
            let made = level_conversion(&fixture.view(), offset).map(|c| c.offer);
            assert_eq!(level_offer(&fixture.view(), offset), made, "at {offset}");
        }
    }
}
