//! How a connection to a mail server is secured (shared by SMTP and IMAP), and the rustls
//! settings behind it: the webpki roots plus, optionally, one extra root CA from a PEM file.

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;

/// How a connection to a mail server is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Security {
    /// Plain text all the way (loopback servers, tests).
    None,
    /// Plain connection upgraded by STARTTLS before logging in; refused if the server cannot.
    StartTls,
    /// TLS from the first byte ("implicit TLS": SMTPS on 465, IMAPS on 993).
    Tls,
}

impl Security {
    /// The word used in configuration files: `none`, `starttls` or `tls`.
    pub fn name(self) -> &'static str {
        match self {
            Security::None => "none",
            Security::StartTls => "starttls",
            Security::Tls => "tls",
        }
    }
}

impl fmt::Display for Security {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Security {
    type Err = String;

    /// Reads `none`/`plain`, `starttls`, `tls`/`ssl`/`implicit` (any case).
    fn from_str(s: &str) -> Result<Security, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "plain" => Ok(Security::None),
            "starttls" => Ok(Security::StartTls),
            "tls" | "ssl" | "implicit" => Ok(Security::Tls),
            other => Err(format!(
                "unknown connection security `{other}` (expected none, starttls or tls)"
            )),
        }
    }
}

/// Reads a PEM file of extra root certificates, checking that it holds at least one.
pub(crate) fn read_ca_pem(path: &Path) -> Result<Vec<u8>, String> {
    let pem =
        std::fs::read(path).map_err(|e| format!("cannot read CA file {}: {e}", path.display()))?;
    let certificates = ca_certificates(&pem, path)?;
    if certificates.is_empty() {
        return Err(format!("no certificate in CA file {}", path.display()));
    }
    Ok(pem)
}

fn ca_certificates(pem: &[u8], path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("bad PEM in CA file {}: {e}", path.display()))
}

/// A rustls client configuration trusting the webpki roots and the certificates of `ca_pem`.
pub(crate) fn client_config(ca_pem: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca_pem {
        let pem = read_ca_pem(path)?;
        for certificate in ca_certificates(&pem, path)? {
            roots
                .add(certificate)
                .map_err(|e| format!("unusable certificate in {}: {e}", path.display()))?;
        }
    }
    // An explicit provider: if several crates enable several rustls providers, rustls cannot
    // pick a process-wide default by itself.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}
