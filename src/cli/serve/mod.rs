//! `dungeonflow serve [PATHS...] [--bind 127.0.0.1] [--port N]`: a local web
//! page to look at a project's levels while editing it. The page and its
//! script are built into the binary; the server answers a fixed set of
//! routes (no file of the disk is ever served) and reloads the page when a
//! flow or room file changes (server-sent events).

mod api;
mod http;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};

use super::common::ProjectArgs;
use crate::diag::Diagnostic;
use crate::project::Project;

/// Requests that generate (levels, graphs, stats) at once; more are
/// answered 503 so that a burst cannot pile up work.
const MAX_BUSY: usize = 4;

/// Connections open at once (page loads, API calls and event streams).
const MAX_CONNECTIONS: usize = 64;

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Flow and room files or folders of the project (added to `-p`,
    /// `./flows` and `./rooms`).
    #[arg(value_name = "PATHS")]
    files: Vec<PathBuf>,
    /// The address to listen on. The default, loopback, keeps the page to
    /// this machine; anything else shares it with the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8460)]
    port: u16,
    /// Look at the files every half second instead of waiting for file
    /// events (network mounts, containers).
    #[arg(long)]
    poll: bool,
    #[command(flatten)]
    project: ProjectArgs,
}

/// What every request shares.
pub struct State {
    project_args: ProjectArgs,
    /// Bumped on every change of the project's files.
    version: AtomicU64,
    /// The project as last loaded, with the version it was loaded at.
    cache: Mutex<Option<(u64, Arc<Project>)>>,
    /// Event streams to tell of a change.
    listeners: Mutex<Vec<Sender<u64>>>,
    /// Requests generating now.
    busy: AtomicUsize,
    /// Connections being answered now.
    open: AtomicUsize,
    /// Whether the server listens on loopback only (then requests must name
    /// a loopback host, which defeats DNS rebinding).
    loopback: bool,
}

impl State {
    /// The project, loaded again when its files changed since last time.
    fn project(&self) -> Result<Arc<Project>, Vec<Diagnostic>> {
        let version = self.version.load(Ordering::SeqCst);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((v, p)) = cache.as_ref()
            && *v == version
        {
            return Ok(p.clone());
        }
        let project = Arc::new(self.project_args.load(None)?);
        *cache = Some((version, project.clone()));
        Ok(project)
    }

    /// Tells every event stream that the files changed.
    fn changed(&self) {
        let version = self.version.fetch_add(1, Ordering::SeqCst) + 1;
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        listeners.retain(|l| l.send(version).is_ok());
    }
}

/// Serves until interrupted.
pub fn run(args: &Args) -> Result<ExitCode, Vec<Diagnostic>> {
    let mut project_args = args.project.clone();
    project_args.paths.extend(args.files.iter().cloned());
    // The project must load (a bad project file is an error up front);
    // mistakes in flows and rooms are shown on the page.
    project_args.load(None)?;
    let server = tiny_http::Server::http(SocketAddr::new(args.bind, args.port)).map_err(|e| {
        vec![
            Diagnostic::error(
                "serve::cannot-listen",
                format!("cannot listen on {}:{}: {e}", args.bind, args.port),
            )
            .help("pick another port with --port N (0 for any free one)"),
        ]
    })?;
    let address = server
        .server_addr()
        .to_ip()
        .map_or_else(|| format!("{}:{}", args.bind, args.port), |a| a.to_string());
    let state = Arc::new(State {
        version: AtomicU64::new(0),
        cache: Mutex::new(None),
        listeners: Mutex::new(Vec::new()),
        busy: AtomicUsize::new(0),
        open: AtomicUsize::new(0),
        loopback: args.bind.is_loopback(),
        project_args,
    });
    let watched = super::watch::watched_paths(&state.project_args, None);
    let (tx, rx) = channel();
    let _watcher = super::watch::start_watching(&watched, args.poll, tx)?;
    let notifier = state.clone();
    std::thread::spawn(move || {
        while super::watch::wait_for_change(&rx) {
            notifier.changed();
        }
    });
    super::out::stdout(format!(
        "serving the project at http://{address}/ (Ctrl-C stops)\n"
    ))?;
    for request in server.incoming_requests() {
        if state.open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            http::respond_busy(request);
            continue;
        }
        state.open.fetch_add(1, Ordering::SeqCst);
        let state = state.clone();
        std::thread::spawn(move || {
            http::answer(&state, request);
            state.open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(ExitCode::SUCCESS)
}
