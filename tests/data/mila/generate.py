"""Plays random games with the MILA engine (PyPI `diplomacy` 1.1.2) and writes each phase as a
case of the judge's adjudicate interface, with MILA's results as the expectation: the files of
this folder, generated once and kept (tests/it/mila.rs reads them). Random orders: each unit
holds or moves (sometimes "via convoy"), then the others support or convoy what was chosen;
retreats at random; builds and removals at random, removals always in full.

    python3 -m venv v && v/bin/pip install diplomacy==1.1.2
    v/bin/python generate.py MILA_MAP VARIANT GAMES YEARS SEED OUT.json [RULES,TO,DROP]

as made: ancmed ancmed 8 7 11; colonial colonial 4 6 71; pure pure 12 6 21; modern modern 6 6 31 BUILD_ANY;
standard_fleet_rome fleet-rome 6 6 41; standard_france_austria france-austria 10 8 51;
standard_germany_italy germany-italy 10 8 61; world world 4 5 81.
"""
import json, random, sys, re
from diplomacy import Game

mila_map, variant, games, years, seed, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
rnd = random.Random(seed)
drop_rules = sys.argv[7].split(",") if len(sys.argv) > 7 else []
POWER_IDS = {}


def pid(power):
    return power.lower().replace("-", "").replace("_", "").replace(" ", "")


def unit_json(power, unit):
    kind, loc = unit.split()
    return {"power": pid(power), "type": {"A": "army", "F": "fleet"}[kind], "at": loc.lower()}


def phase_json(name):
    season = {"S": "spring", "F": "fall", "W": "winter"}[name[0]]
    kind = {"M": "movement", "R": "retreat", "A": "adjustment"}[name[-1]]
    return {"season": season, "year": int(name[1:-1]), "kind": kind}


def choose_movement(game):
    possible = game.get_all_possible_orders()
    locs = game.get_orderable_locations()
    chosen = {}
    # first pass: every unit holds or moves
    plans = {}
    for power, places in locs.items():
        for loc in places:
            orders = possible.get(loc, [])
            if not orders:
                continue
            moves = [o for o in orders if " - " in o and not o.endswith(" VIA")]
            vias = [o for o in orders if o.endswith(" VIA")]
            r = rnd.random()
            if moves and r < 0.55:
                plans[loc] = (power, rnd.choice(moves))
            elif vias and r < 0.62:
                plans[loc] = (power, rnd.choice(vias))
            else:
                plans[loc] = (power, None)
    # second pass: some units support or convoy what others do
    wanted = {o.split(" ", 1)[1] for _, o in plans.values() if o}  # "LON - BEL" style? keep full
    planned_orders = {o for _, o in plans.values() if o}
    for loc, (power, order) in list(plans.items()):
        if order is not None:
            continue
        orders = possible.get(loc, [])
        supports = []
        for o in orders:
            m = re.match(r"^[AF] \S+ S (.*)$", o)
            if m:
                target = m.group(1)
                if any(p == target or p.startswith(target + " VIA") for p in planned_orders):
                    supports.append(o)
                elif " - " not in target and rnd.random() < 0.15:
                    supports.append(o)
        convoys = [o for o in orders if " C " in o]
        good_convoys = []
        for o in convoys:
            target = o.split(" C ", 1)[1]
            if any(p.startswith(target) for p in planned_orders):
                good_convoys.append(o)
        r = rnd.random()
        if good_convoys and r < 0.8:
            plans[loc] = (power, rnd.choice(good_convoys))
        elif supports and r < 0.85:
            plans[loc] = (power, rnd.choice(supports))
        elif rnd.random() < 0.1 and orders:
            plans[loc] = (power, rnd.choice(orders))
        else:
            hold = [o for o in orders if o.endswith(" H")]
            plans[loc] = (power, hold[0] if hold else None)
    for loc, (power, order) in plans.items():
        if order:
            chosen.setdefault(power, []).append(order)
    return chosen


def choose_other(game):
    possible = game.get_all_possible_orders()
    locs = game.get_orderable_locations()
    chosen = {}
    state = game.get_state()
    if game.phase_type == "A":
        for power, places in locs.items():
            count = state["builds"][power]["count"]
            if count == 0:
                continue
            if count > 0:
                sites = list(places)
                rnd.shuffle(sites)
                n = rnd.randint(0, count)
                orders = []
                for loc in sites[:n]:
                    opts = [o for o in possible.get(loc, []) if o.endswith(" B")]
                    if opts:
                        orders.append(rnd.choice(opts))
                if len(orders) < count and rnd.random() < 0.5:
                    orders.append("WAIVE")
                chosen[power] = orders
            else:
                units = list(places)
                rnd.shuffle(units)
                orders = []
                for loc in units[:-count]:
                    opts = [o for o in possible.get(loc, []) if o.endswith(" D")]
                    if opts:
                        orders.append(opts[0])
                chosen[power] = orders
    else:
        for power, places in locs.items():
            for loc in places:
                opts = possible.get(loc, [])
                if opts:
                    chosen.setdefault(power, []).append(rnd.choice(opts))
    return chosen


def results_ok(codes):
    return not codes


cases = []
for g in range(games):
    game = Game(map_name=mila_map)
    # MILA's modern.map plays BUILD_ANY, DPjudge's (and about_modern) does not: the judge
    # follows DPjudge, so MILA is asked to play without it.
    for rule in drop_rules:
        if rule in game.rules:
            game.remove_rule(rule)
    start_year = int(game.get_current_phase()[1:-1])
    while not game.is_game_done:
        phase = game.get_current_phase()
        if int(phase[1:-1]) >= start_year + years:
            break
        state = game.get_state()
        before_units = state["units"]
        centers = {pid(p): [c.lower() for c in cs] for p, cs in state["centers"].items()}
        if game.phase_type == "M":
            orders = choose_movement(game)
        else:
            orders = choose_other(game)
        for power, os in orders.items():
            game.set_orders(power, os)
        # what MILA took
        taken = {p: game.get_orders(p) for p in game.powers}
        dislodged_before = []
        if game.phase_type == "R":
            for power, us in before_units.items():
                for u in us:
                    if u.startswith("*"):
                        dislodged_before.append((power, u[1:]))
        adjustments = None
        if game.phase_type == "A":
            adjustments = {pid(p): state["builds"][p]["count"] for p in state["builds"] if state["builds"][p]["count"] != 0}
        game.process()
        hist = game.get_phase_history()[-1]
        after = game.get_state()
        results = {str(k): [str(x) for x in v] for k, v in hist.results.items()}
        case = {"id": f"mila {mila_map} game {g + 1} {phase}", "variant": variant, "phase": phase_json(phase)}
        case["units"] = [unit_json(p, u) for p, us in before_units.items() for u in us if not u.startswith("*")]
        if dislodged_before:
            # the unit that dislodged each: the successful move into its province last phase
            prev = game.get_phase_history()[-2]
            dl = []
            for power, u in dislodged_before:
                loc = u.split()[1][:3]
                origin = None
                for p, os in prev.orders.items():
                    for o in os:
                        w = o.split()
                        if len(w) >= 4 and w[2] == "-" and w[3][:3] == loc and not prev.results.get(" ".join(w[:2])):
                            origin = w[1][:3].lower()
                entry = unit_json(power, u)
                entry["attacker_from"] = origin or loc.lower()
                dl.append(entry)
            case["dislodged"] = dl
        case["centers"] = centers
        case["orders"] = {pid(p): os for p, os in taken.items() if os}
        mila = {}
        expect = {}
        after_units = after["units"]
        expect["positions_after"] = [unit_json(p, u) for p, us in after_units.items() for u in us if not u.startswith("*")]
        if game.phase_type == "R" or phase[-1] == "M":
            dis = [u[1:] for p, us in after_units.items() for u in us if u.startswith("*")]
            if phase[-1] == "M":
                expect["dislodged"] = sorted(u.split()[1].lower() for u in dis)
                expect["retreats"] = {u.split()[1].lower(): sorted(x.lower() for x in opts)
                                      for p, rs in after["retreats"].items() for u, opts in rs.items()}
        if adjustments is not None:
            expect["adjustments"] = adjustments
        expect["orders"] = []
        for p, os in taken.items():
            for o in os:
                unit = " ".join(o.split()[:2])
                codes = results.get(unit, [])
                expect["orders"].append({"power": pid(p), "order": o, "mila": codes})
        case["expect"] = expect
        cases.append(case)
with open(out, "w") as f:
    f.write("[\n")
    f.write(",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases))
    f.write("\n]\n")
print(len(cases), "cases")
