//! What the classic judges offer that this judge does not (njudge's `index`, DPjudge's
//! `Email` page): the commands and settings a player may still send, each read into the reason
//! it is not offered, so that the judge answers with a sentence saying why and what to use
//! instead (`docs/commands.md` lists every one), never with "unknown command".

use super::line::{self, Word};

/// Why a command or setting of the classic judges is not offered, one kind of reason each;
/// the judge's catalog holds the sentence for each (`unsupported.<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Machiavelli's rules (money, bribes, famine, plague, fortresses...).
    Machiavelli,
    /// A rule option of njudge's map files (railways, gateways, any-centre builds,
    /// transformations, a blank board...): here a variant's rules come with its file.
    VariantOption,
    /// Fewer players than powers, or fewer powers (njudge's duplex games).
    Duplex,
    /// Dedication, on-time and resignation ratings, player levels, rated games.
    Ratings,
    /// A master approving each new player.
    Approval,
    /// Boardman, Miller and EP numbers.
    Numbers,
    /// Fake press (partial press shown as a broadcast, a false sender).
    FakePress,
    /// Touch press (press only to neighbours).
    TouchPress,
    /// Observers reading partial press.
    WatchAllPress,
    /// A game's comment in LIST.
    Comment,
    /// Showing or hiding who changed a setting.
    Show,
    /// Keeping an anonymous game's players secret after it ends, or its number of players.
    Secret,
    /// Grace periods sliding to a valid day.
    StrictGrace,
    /// Plausible-convoy checks at order time.
    StrictConvoy,
    /// Proxy orders (a unit ordered by another power).
    Proxy,
    /// RESUME reopening a terminated game.
    ResumeFinished,
    /// njudge's PRFLIST, PRFRAND, PRFBOTH ways of dealing powers.
    PreferencePolicy,
    /// A new game made when this one ends.
    AutoCreate,
    /// Blank press messages.
    BlankPress,
    /// Dedication statistics of a player (INFO PLAYER, GET DEDICATION).
    PlayerInfo,
    /// The judge keeper's own commands (ADJUST, RECORD, FIXID, NOCONTROL).
    Keeper,
    /// Game options written after the variant (CREATE's and SET VARIANT's options).
    Options,
    /// DPjudge's TAKEOVER: SIGNON takes over a power here.
    Takeover,
    /// DPjudge's VOTE and PROPOSE: draws are SET DRAW here.
    Vote,
    /// DPjudge's MONITOR: OBSERVE here.
    Monitor,
    /// DPjudge's master commands not offered (RENAME, FORM, ACTIVATE, DUMMY, PURGE, REVIVE,
    /// ROLLFORWARD, OFFICIAL).
    DpMaster,
}

/// Each phrase of a setting (after `SET`, `NO`/`NOT` forms included) and why it is not
/// offered; `already` is true where what the setting asks for is how this judge works
/// anyway (`SET NO FAKE`), so the answer is a note, not an error.
const SETTINGS: &[(&[&str], Unsupported, bool)] = {
    use Unsupported::*;
    &[
        (&["ADJACENT"], Machiavelli, false),
        (&["ADJACENCY"], Machiavelli, false),
        (&["ASSASSINS"], Machiavelli, false),
        (&["ASSASSINATION"], Machiavelli, false),
        (&["ASSASSINATIONS"], Machiavelli, false),
        (&["BANK"], Machiavelli, false),
        (&["BANKERS"], Machiavelli, false),
        (&["DICE"], Machiavelli, false),
        (&["FAMINE"], Machiavelli, false),
        (&["FORT"], Machiavelli, false),
        (&["FORTRESS"], Machiavelli, false),
        (&["GARRISON"], Machiavelli, false),
        (&["GARRISONS"], Machiavelli, false),
        (&["LOANS"], Machiavelli, false),
        (&["MONEY"], Machiavelli, false),
        (&["PLAGUE"], Machiavelli, false),
        (&["SPECIAL"], Machiavelli, false),
        (&["STORM"], Machiavelli, false),
        (&["STORMS"], Machiavelli, false),
        (&["MACH2"], Machiavelli, false),
        (&["COASTAL", "CONVOYS"], Machiavelli, false),
        (&["DISBAND"], Machiavelli, false),
        (&["RAILWAYS"], VariantOption, false),
        (&["GATEWAYS"], VariantOption, false),
        (&["HONG", "KONG"], VariantOption, false),
        (&["DUALITY"], VariantOption, false),
        (&["PORTAGE"], VariantOption, false),
        (&["SUMMER"], VariantOption, false),
        (&["BLANK", "BOARD"], VariantOption, false),
        (&["EMPTY", "BOARD"], VariantOption, false),
        (&["ANY", "CENTRE"], VariantOption, false),
        (&["ANY", "CENTRES"], VariantOption, false),
        (&["ANY", "CENTER"], VariantOption, false),
        (&["ANY", "CENTERS"], VariantOption, false),
        (&["HOME", "CENTRE"], VariantOption, false),
        (&["HOME", "CENTRES"], VariantOption, false),
        (&["HOME", "CENTER"], VariantOption, false),
        (&["HOME", "CENTERS"], VariantOption, false),
        (&["ONE", "CENTRE"], VariantOption, false),
        (&["ONE", "CENTRES"], VariantOption, false),
        (&["ONE", "CENTER"], VariantOption, false),
        (&["ONE", "CENTERS"], VariantOption, false),
        (&["ANY", "DISBAND"], VariantOption, false),
        (&["NORMAL", "DISBAND"], VariantOption, false),
        (&["AUTO", "DISBAND"], VariantOption, false),
        (&["ATTACK", "TRANSFORM"], VariantOption, false),
        (&["TRANSFORM"], VariantOption, false),
        (&["TRAFO"], VariantOption, false),
        (&["HOME", "TRANSFER"], VariantOption, false),
        (&["ALLIED", "WIN"], VariantOption, false),
        (&["BCENTERS"], VariantOption, false),
        (&["BCENTRES"], VariantOption, false),
        (&["NOT", "VARIANT"], Options, false),
        (&["PLAYERS"], Duplex, false),
        (&["POWERS"], Duplex, false),
        (&["DEDICATION"], Ratings, false),
        (&["ONTIMERAT"], Ratings, false),
        (&["RESRAT"], Ratings, false),
        (&["LEVEL"], Ratings, false),
        (&["RATED"], Ratings, false),
        (&["UNRATED"], Ratings, false),
        (&["ACCESS"], Ratings, false),
        (&["APPROVAL"], Approval, false),
        (&["APPROVE"], Approval, false),
        (&["APPROVED"], Approval, false),
        (&["NOT", "APPROVE"], Approval, false),
        (&["NOT", "APPROVED"], Approval, false),
        (&["BN"], Numbers, false),
        (&["BNC"], Numbers, false),
        (&["MN"], Numbers, false),
        (&["MNC"], Numbers, false),
        (&["EP"], Numbers, false),
        (&["PARTIAL", "FAKES"], FakePress, false),
        (&["PARTIAL", "MAY"], FakePress, false),
        (&["PARTIAL", "BY", "DEFAULT"], FakePress, false),
        (&["FAKE"], FakePress, false),
        (&["TOUCH", "PRESS"], TouchPress, false),
        (&["WATCH", "ALL", "PRESS"], WatchAllPress, false),
        (&["COMMENT"], Comment, false),
        (&["SHOW"], Show, false),
        (&["REVEAL"], Secret, false),
        (&["SECRET"], Secret, false),
        (&["STRICT", "GRACE"], StrictGrace, true),
        (&["STRICT", "CONVOY"], StrictConvoy, false),
        (&["PROXY"], Proxy, false),
        (&["RESUME"], ResumeFinished, false),
        (&["PRFBOTH"], PreferencePolicy, false),
        (&["PRFLIST"], PreferencePolicy, true),
        (&["PRFRAND"], PreferencePolicy, false),
        (&["AUTO", "CREATE"], AutoCreate, false),
        (&["BLANK", "PRESS"], BlankPress, false),
    ]
};

/// The negative forms whose answer is "this is how the judge works anyway".
const ALREADY_WHEN_NEGATED: &[Unsupported] = &[
    Unsupported::Machiavelli,
    Unsupported::VariantOption,
    Unsupported::FakePress,
    Unsupported::TouchPress,
    Unsupported::WatchAllPress,
    Unsupported::Show,
    Unsupported::Proxy,
    Unsupported::AutoCreate,
    Unsupported::Approval,
    Unsupported::Comment,
    Unsupported::BlankPress,
];

/// A classic setting not offered that the line (from `SET` on) names: the phrase as the
/// judge writes it (`SET NO TOUCH PRESS`), why, whether it is already so, and how many words
/// of the line the phrase took.
pub(super) fn setting(words: &[Word]) -> Option<(String, Unsupported, bool, usize)> {
    if !line::begins_with_set(words) {
        return None;
    }
    let mut best: Option<(String, Unsupported, bool, usize, usize)> = None;
    for negation in [&[][..], &["NO"][..], &["NOT"][..]] {
        for (phrase, why, already) in SETTINGS {
            let whole: Vec<&str> = std::iter::once("SET")
                .chain(negation.iter().copied())
                .chain(phrase.iter().copied())
                .collect();
            let Some(used) = line::spells(words, &whole) else {
                continue;
            };
            if best.as_ref().is_some_and(|b| b.4 >= whole.len()) {
                continue;
            }
            let negated = !negation.is_empty();
            let already = if negated {
                ALREADY_WHEN_NEGATED.contains(why) && !already
            } else {
                *already
            };
            best = Some((whole.join(" "), *why, already, used, whole.len()));
        }
    }
    best.map(|(phrase, why, already, used, _)| (phrase, why, already, used))
}

/// How many phrase words the longest of this table's phrases that the line spells has
/// (0: none), to weigh it against the settings this judge offers.
pub(super) fn setting_length(words: &[Word]) -> usize {
    setting(words).map_or(0, |(phrase, ..)| phrase.split(' ').count())
}

#[cfg(test)]
mod tests {
    use super::super::line::words;
    use super::*;

    #[test]
    fn classic_settings_are_named_with_their_reason() {
        let read = |text: &str| setting(&words(text)).map(|(p, w, a, _)| (p, w, a));
        assert_eq!(
            read("SET TOUCH PRESS"),
            Some(("SET TOUCH PRESS".into(), Unsupported::TouchPress, false))
        );
        assert_eq!(
            read("set no touch press"),
            Some(("SET NO TOUCH PRESS".into(), Unsupported::TouchPress, true))
        );
        assert_eq!(
            read("SET DEDICATION 10"),
            Some(("SET DEDICATION".into(), Unsupported::Ratings, false))
        );
        assert_eq!(
            read("SET STRICT GRACE"),
            Some(("SET STRICT GRACE".into(), Unsupported::StrictGrace, true))
        );
        assert_eq!(read("SET WAIT"), None);
    }
}
