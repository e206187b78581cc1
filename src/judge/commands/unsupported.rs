//! The answers to what the classic judges offer and this one does not: a sentence saying why
//! and what to use instead (docs/commands.md lists every command and setting with its answer).
//! A setting that asks for what this judge does anyway is a note; anything else an error, so
//! the player sees at once that nothing was done.

use crate::judge::session::Session;
use crate::msg;
use crate::report::Message;
use crate::text::command::Unsupported;

/// Why `what` is not offered, and what to use instead, for the phrase as written.
pub(crate) fn reason(what: Unsupported, phrase: &str) -> Message {
    use Unsupported::*;
    match what {
        Machiavelli => msg!("unsupported.machiavelli", phrase = phrase),
        VariantOption => msg!("unsupported.variant_option", phrase = phrase),
        Duplex => msg!("unsupported.duplex", phrase = phrase),
        Ratings => msg!("unsupported.ratings", phrase = phrase),
        Approval => msg!("unsupported.approval", phrase = phrase),
        Numbers => msg!("unsupported.numbers", phrase = phrase),
        FakePress => msg!("unsupported.fake_press", phrase = phrase),
        TouchPress => msg!("unsupported.touch_press", phrase = phrase),
        WatchAllPress => msg!("unsupported.watch_all_press", phrase = phrase),
        Comment => msg!("unsupported.comment", phrase = phrase),
        Show => msg!("unsupported.show", phrase = phrase),
        Secret => msg!("unsupported.secret", phrase = phrase),
        StrictGrace => msg!("unsupported.strict_grace", phrase = phrase),
        StrictConvoy => msg!("unsupported.strict_convoy", phrase = phrase),
        Proxy => msg!("unsupported.proxy", phrase = phrase),
        ResumeFinished => msg!("unsupported.resume_finished", phrase = phrase),
        PreferencePolicy => msg!("unsupported.preference_policy", phrase = phrase),
        AutoCreate => msg!("unsupported.auto_create", phrase = phrase),
        BlankPress => msg!("unsupported.blank_press", phrase = phrase),
        PlayerInfo => msg!("unsupported.player_info", phrase = phrase),
        Keeper => msg!("unsupported.keeper", phrase = phrase),
        Options => msg!("unsupported.options", phrase = phrase),
        Takeover => msg!("unsupported.takeover", phrase = phrase),
        Vote => msg!("unsupported.vote", phrase = phrase),
        Monitor => msg!("unsupported.monitor", phrase = phrase),
        DpMaster => msg!("unsupported.dp_master", phrase = phrase),
    }
}

/// A command or setting not offered: why, and what to use; `already` when what it asks
/// for is how this judge works anyway (a note, not an error).
pub(crate) fn unsupported(
    cx: &mut Session<'_>,
    line: usize,
    phrase: &str,
    what: Unsupported,
    already: bool,
) {
    if already {
        cx.say(msg!("unsupported.already", phrase = phrase));
    } else {
        cx.fail(line, reason(what, phrase));
    }
}
