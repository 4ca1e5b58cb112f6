#[allow(dead_code)]
#[path = "../tests/it/generate.rs"]
mod generate;
fn main() {
    let mut rng = generate::Rng::new(0xA0);
    let grids: Vec<_> = (0..2000)
        .map(|_| {
            let size = generate::size(&mut rng, 20);
            generate::mixed(&mut rng, size)
        })
        .collect();
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        for g in &grids {
            if matches!(boxls::solver::solve(g), boxls::solver::Outcome::Solved(_)) {
                n += 1;
            }
        }
    }
    println!("{n} {:?}", t.elapsed() / 20);
}
