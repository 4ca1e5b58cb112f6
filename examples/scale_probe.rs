use boxls::maze::Grid;
use std::time::Instant;
fn room(n: usize, seed: u64) -> Grid {
    let mut s = seed;
    let mut rnd = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut walls = vec![false; n * n];
    for r in 0..n {
        for c in 0..n {
            if r == 0 || c == 0 || r == n - 1 || c == n - 1 || rnd() % 50 == 0 {
                walls[r * n + c] = true;
            }
        }
    }
    let (p, b, t) = (n + 1, (n / 2) * n + n / 2, (n - 2) * n + n - 2);
    for x in [p, b, t] {
        walls[x] = false;
    }
    Grid {
        rows: n,
        cols: n,
        walls,
        player: p,
        boxed: b,
        target: t,
    }
}
fn main() {
    for n in [500usize, 1000, 2000] {
        let g = room(n, 12345);
        let t = Instant::now();
        let out = boxls::solver::solve(&g);
        let e = t.elapsed();
        match out {
            boxls::solver::Outcome::Solved(s) => {
                println!("{n}: {e:?} pushes {} moves {}", s.pushes, s.moves)
            }
            o => println!("{n}: {e:?} {o:?}"),
        }
    }
}
