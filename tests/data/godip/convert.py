"""Turns the games godip keeps as its tests (zond/godip, variants/<variant>/games/game_N.txt:
vDiplomacy games, each phase's positions and orders, checked by godip's own adjudicator) into
cases of the judge's adjudicate interface: each phase's units, centres and orders, with the
next phase's positions as the expectation. Generated once and kept (tests/it/godip.rs); to
keep the file small, each unit is written "power type at" (dislodged: "power type at from"),
which tests/it/godip.rs expands to the interface's objects.

    python3 convert.py VARIANT OUT.json game_1.txt game_2.txt ...

as made: youngstown youngstown.json game_1.txt ... game_9.txt (godip's youngstownredux games,
from vDiplomacy games 32873, 30781, 29323, 6667, 6670, 6676, 7157, 7369 and 11983).
Standard library only.
"""
import json
import re
import sys

KIND = {"Movement": "movement", "Retreat": "retreat", "Adjustment": "adjustment"}
SEASON = {"Spring": "spring", "Fall": "fall"}


def read(path):
    phases = []
    for block in re.split(r"^PHASE ", open(path).read(), flags=re.M)[1:]:
        head, rest = block.split("\n", 1)
        year, season, kind = head.split()
        positions, orders = rest.split("ORDERS", 1) if "ORDERS" in rest else (rest, "")
        units, dislodged, centres = [], [], {}
        for line in positions.splitlines():
            m = re.match(r"\s+([A-Za-z]+): (army|fleet|supply)(/dislodged)? (\S+)", line)
            if not m:
                continue
            power, what, moved, at = m.groups()
            power = power.lower()
            if what == "supply":
                centres.setdefault(power, []).append(at)
            else:
                unit = {"power": power, "type": what, "at": at}
                into = dislodged if moved else units
                if unit not in into:  # godip's files list a unit twice, now and then
                    into.append(unit)
        phases.append({"year": int(year), "season": season, "kind": kind, "units": units,
                       "dislodged": dislodged, "centres": centres,
                       "orders": [l.split() for l in orders.splitlines() if l.strip()]})
    return phases


def letter(kind):
    return {"army": "A", "fleet": "F"}[kind]


def order_text(phase, words):
    where = {u["at"]: u for u in phase["units"]}
    if phase["kind"] == "Retreat":
        where = {u["at"]: u for u in phase["dislodged"]}
    prov = lambda at: next((u for a, u in where.items() if a.split("/")[0] == at.split("/")[0]), None)
    if words[0] == "build":
        return None, "%s %s B" % (words[1][0].upper(), words[2].upper())
    if words[0] == "remove":
        words = [words[1], "disband"]
    unit = prov(words[0])
    if unit is None:
        return None, None
    me = "%s %s" % (letter(unit["type"]), unit["at"].upper())
    verb = words[1]
    if verb == "hold":
        text = me + " H"
    elif verb == "disband":
        text = me + " D"
    elif verb == "move":
        text = "%s %s %s" % (me, "R" if phase["kind"] == "Retreat" else "-", words[2].upper())
    elif verb in ("support", "convoy"):
        other = prov(words[2])
        if other is None:
            return unit["power"], None
        them = "%s %s" % (letter(other["type"]), words[2].upper())
        text = "%s %s %s" % (me, "S" if verb == "support" else "C", them)
        if len(words) == 5:
            text += " - " + words[4].upper()
    else:
        raise SystemExit("unknown order %r" % words)
    return unit["power"], text


def short(unit):
    return "%s %s %s" % (unit["power"], unit["type"], unit["at"])


def attacker(before, phase, at):
    """Where the unit that dislodged the one at `at` came from: the move of the phase before
    into that province by a unit that stands there now."""
    here = at.split("/")[0]
    now = [u["at"].split("/")[0] for u in phase["units"]]
    for words in before["orders"]:
        if len(words) == 3 and words[1] == "move" and words[2].split("/")[0] == here and here in now:
            return words[0].split("/")[0]
    raise SystemExit("no attacker for %s in %s %s" % (at, phase["year"], phase["season"]))


def cases(variant, name, phases):
    out = []
    for i, phase in enumerate(phases[:-1]):
        after = phases[i + 1]
        orders = {}
        for words in phase["orders"]:
            power, text = order_text(phase, words)
            if text is None:
                continue
            if power is None:  # a build: the power that owns the centre
                at = words[2].split("/")[0]
                power = next(p for p, cs in phase["centres"].items() if at in cs)
            orders.setdefault(power, []).append(text)
        code = "%s%d%s" % (phase["season"][0], phase["year"], phase["kind"][0])
        case = {
            "id": "godip %s %s %s" % (variant, name, code),
            "variant": variant,
            "phase": {"season": SEASON[phase["season"]] if phase["kind"] != "Adjustment" else "winter",
                      "year": phase["year"], "kind": KIND[phase["kind"]]},
            "units": phase["units"],
            "centers": phase["centres"],
            "orders": orders,
        }
        if phase["kind"] == "Retreat":
            case["dislodged"] = ["%s %s" % (short(u), attacker(phases[i - 1], phase, u["at"]))
                                 for u in phase["dislodged"]]
        case["units"] = [short(u) for u in phase["units"]]
        expect = {"positions_after": [short(u) for u in after["units"]]}
        if phase["kind"] == "Movement":
            expect["dislodged"] = sorted(u["at"] for u in after["dislodged"])
        case["expect"] = expect
        out.append(case)
    return out


def main():
    variant, out = sys.argv[1], sys.argv[2]
    everything = []
    for path in sys.argv[3:]:
        name = path.rsplit("/", 1)[-1].replace(".txt", "").replace("_", " ")
        everything += cases(variant, name, read(path))
    json.dump(everything, open(out, "w"), separators=(",", ":"))
    open(out, "a").write("\n")
    print(len(everything), "cases")


main()
