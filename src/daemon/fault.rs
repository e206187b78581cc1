//! Faults injected on purpose, to show how the daemon survives a letter that panics, kills or
//! stalls the judge: a `Fault` put on the `Daemon` strikes while the judge handles a letter
//! whose body holds its marker.
//!
//! Never active in production: no key of `config.toml` sets one. Tests and benchmarks put one
//! on the daemon they build; the `strategos` binary reads `STRATEGOS_FAULT` (`panic:MARKER`,
//! `kill:MARKER`, `stall:MARKER`) only when built with debug assertions (the test builds), and
//! a release build ignores it.

/// What a fault does to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The handling panics: the daemon catches it and the letter's transaction is rolled back.
    Panic,
    /// The process ends at once (`abort`), as under SIGKILL, a power cut or the kernel's OOM
    /// killer: the letter's transaction never commits.
    Kill,
    /// The handling never ends, as in an endless loop; only the watchdog ends it.
    Stall,
}

/// A fault that strikes on letters whose body holds `marker`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub marker: String,
}

/// The environment variable a debug build of the binary reads a fault from.
pub const FAULT_VARIABLE: &str = "STRATEGOS_FAULT";

impl Fault {
    /// `panic:MARKER`, `kill:MARKER` or `stall:MARKER`; `None` for anything else (an empty
    /// marker too, which would strike on every letter).
    pub fn parse(text: &str) -> Option<Fault> {
        let (kind, marker) = text.split_once(':')?;
        let kind = match kind.trim() {
            "panic" => FaultKind::Panic,
            "kill" => FaultKind::Kill,
            "stall" => FaultKind::Stall,
            _ => return None,
        };
        (!marker.is_empty()).then(|| Fault {
            kind,
            marker: marker.to_string(),
        })
    }

    /// The fault `STRATEGOS_FAULT` asks for, in a build with debug assertions; `None` in a
    /// release build, whatever the environment says.
    pub fn from_environment() -> Option<Fault> {
        if !cfg!(debug_assertions) {
            return None;
        }
        std::env::var(FAULT_VARIABLE)
            .ok()
            .and_then(|text| Fault::parse(&text))
    }

    /// Strikes if `body` holds the marker; returns otherwise.
    pub fn strike(&self, body: &str) {
        if !body.contains(&self.marker) {
            return;
        }
        match self.kind {
            FaultKind::Panic => panic!("injected fault: a letter marked {:?}", self.marker),
            FaultKind::Kill => std::process::abort(),
            FaultKind::Stall => loop {
                std::thread::park();
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_read_from_kind_and_marker() {
        assert_eq!(
            Fault::parse("panic:POISON"),
            Some(Fault {
                kind: FaultKind::Panic,
                marker: "POISON".into()
            })
        );
        assert_eq!(
            Fault::parse("stall:a:b").map(|f| (f.kind, f.marker)),
            Some((FaultKind::Stall, "a:b".to_string()))
        );
        assert_eq!(
            Fault::parse("kill:X").map(|f| f.kind),
            Some(FaultKind::Kill)
        );
        for refused in ["panic:", "panic", "explode:X", ""] {
            assert_eq!(Fault::parse(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn a_fault_strikes_only_on_its_marker() {
        let fault = Fault::parse("panic:POISON").unwrap();
        fault.strike("HELP\nLIST\n");
        let struck = std::panic::catch_unwind(|| fault.strike("HELP\nPOISON\n"));
        assert!(struck.is_err());
    }
}
