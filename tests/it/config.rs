//! `config.toml`: the shipped file states exactly the defaults; a bad value names its key;
//! secrets come from the environment.

use strategos::config::{Config, Environment};

struct Env(Vec<(&'static str, &'static str)>);

impl Environment for Env {
    fn var(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn the_shipped_config_is_the_defaults() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config.toml")).unwrap();
    let config = Config::from_toml("config.toml", &text, &Env(vec![])).unwrap();
    assert_eq!(config, Config::default());
    assert_eq!(
        Config::from_toml("empty.toml", "", &Env(vec![])).unwrap(),
        Config::default()
    );
}

#[test]
fn a_bad_value_names_its_key() {
    let cases = [
        ("[judge]\ntime_zone = \"Mars/Olympus\"\n", "judge.time_zone"),
        ("[judge]\naddress = \"nobody\"\n", "judge.address"),
        ("[inbox]\nkind = \"pigeon\"\n", "inbox.kind"),
        ("[outbox]\nkind = \"fax\"\n", "outbox.kind"),
        ("[inbox]\nkind = \"imap\"\n", "imap.user"),
        ("[deadlines]\nmovement_hours = 0\n", "deadlines"),
        ("[imap]\nsecurity = \"maybe\"\n", "security"),
        ("[smtp]\nport = \"twenty-five\"\n", "port"),
        (
            "[limits]\nmax_message_bytes = 10\n",
            "limits.max_message_bytes",
        ),
        ("[judge]\nnmae = \"x\"\n", "nmae"),
    ];
    for (text, key) in cases {
        let err = Config::from_toml("bad.toml", text, &Env(vec![])).unwrap_err();
        assert!(
            err.contains(key) && err.starts_with("bad.toml"),
            "{text:?} gave {err}"
        );
    }
}

#[test]
fn secrets_come_from_the_environment() {
    let env = Env(vec![
        ("STRATEGOS_IMAP_PASSWORD", "s3cret"),
        ("STRATEGOS_SMTP_PASSWORD", "t0p"),
    ]);
    let config = Config::from_toml("c.toml", "[imap]\npassword = \"in-file\"\n", &env).unwrap();
    assert_eq!(config.imap.password.as_deref(), Some("s3cret"));
    assert_eq!(config.smtp.password.as_deref(), Some("t0p"));
}
