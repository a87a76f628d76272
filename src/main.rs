fn main() -> std::process::ExitCode {
    dungeonflow::cli::run()
}
