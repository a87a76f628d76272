/// Layout allocates many small, short-lived vectors; mimalloc serves them
/// faster than the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    dungeonflow::cli::run()
}
