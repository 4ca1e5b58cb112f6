//! The `boxls` binary: see `boxls --help`.

fn main() -> std::process::ExitCode {
    boxls::cli::main()
}
