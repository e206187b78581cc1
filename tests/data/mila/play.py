"""Plays a greedy game with the MILA engine (PyPI `diplomacy` 1.1.2) for the whole-game flow
tests: the ACTIVE powers (POWER or POWER:last_year) move each unit toward the nearest centre
they do not own that no unit stands in, hold an unowned centre in the autumn, and with
ATTACK=1 attack an enemy unit on a centre with two units (one moves, one supports); they
build on free home centres and waive the rest. The other powers hold, retreat to the first
place open and remove their first units. The log (phases, orders in MILA syntax) goes to
OUT.json; letters.py writes it as letters.

    ATTACK=1 v/bin/python play.py MILA_MAP ACTIVE VICTORY LAST_YEAR OUT.json

as made: ATTACK=1 ... standard_france_austria FRANCE,AUSTRIA:1902 18 1915 (flow
023-france-austria: France wins in the autumn of 1905); ATTACK=1 ... ancmed
ROME,CARTHAGE:2,GREECE:1,EGYPT:1,PERSIA:1 18 30 (flow 024-ancmed: Rome wins in the autumn
of year 6).
"""
import sys, json, collections
from diplomacy import Game

mila_map, victory, max_years = sys.argv[1], int(sys.argv[3]), int(sys.argv[4])
active_until = {a.split(':')[0]: int(a.split(':')[1]) if ':' in a else 9999 for a in sys.argv[2].split(',')}
g = Game(map_name=mila_map)
import os as _os
ATTACK = _os.environ.get('ATTACK') == '1'
m = g.map

def neighbours(loc, kind):
    out = []
    for other in m.locs:
        o = other.upper()
        if m.abuts(kind, loc, '-', o):
            out.append(o)
    return out

adj_cache = {}
def adj(loc, kind):
    k = (loc, kind)
    if k not in adj_cache:
        adj_cache[k] = neighbours(loc, kind)
    return adj_cache[k]

def dist_to(loc, kind, goals):
    seen = {loc: 0}; q = collections.deque([loc])
    while q:
        x = q.popleft()
        if x[:3] in goals:
            return seen[x], x
        for y in adj(x, kind):
            if y not in seen:
                seen[y] = seen[x] + 1; q.append(y)
    return 999, None

log = []
while True:
    phase = g.get_current_phase()
    if phase == 'COMPLETED' or int(phase[1:5]) > max_years:
        break
    orders = {}
    occupied = {u.split()[1][:3] for p in g.powers.values() for u in p.units}
    possible = g.get_all_possible_orders()
    for name, power in g.powers.items():
        if phase.endswith('M'):
            if active_until.get(name, 0) >= int(phase[1:5]):
                owned = set(power.centers)
                taken = set()
                os = []
                busy = set()
                # Attack an enemy unit on a centre with two units: one moves, one supports.
                if ATTACK:
                    mine = {u.split()[1]: u for u in power.units}
                    for other, op in g.powers.items():
                        if other == name:
                            continue
                        for eu in sorted(op.units):
                            target = eu.split()[1]
                            if target[:3] not in m.scs or target[:3] in taken:
                                continue
                            movers = [l for l in mine if l not in busy and f'{mine[l]} - {target}' in possible[l]]
                            helpers = [l for l in mine if l not in busy and f'{mine[l]} S {mine[movers[0]]} - {target}' in possible[l]] if movers else []
                            helpers = [h for h in helpers if h != movers[0]]
                            if movers and helpers:
                                os.append(f'{mine[movers[0]]} - {target}')
                                os.append(f'{mine[helpers[0]]} S {mine[movers[0]]} - {target}')
                                busy |= {movers[0], helpers[0]}; taken.add(target[:3])
                for u in sorted(power.units):
                    kind, loc = u.split()
                    if loc in busy:
                        continue
                    if phase.startswith('F') and loc[:3] in m.scs and loc[:3] not in owned:
                        os.append(f'{kind} {loc} H'); taken.add(loc[:3]); continue
                    goals = {c for c in m.scs if c not in owned and c not in occupied and c not in taken}
                    best = None
                    for o in possible[loc]:
                        parts = o.split()
                        if len(parts) == 4 and parts[2] == '-' and parts[3][:3] not in occupied | taken:
                            d, _ = dist_to(parts[3], kind, goals)
                            if best is None or d < best[0]:
                                best = (d, o, parts[3][:3])
                    d0, _ = dist_to(loc, kind, goals)
                    if best and (best[0] < d0 or loc[:3] in m.scs and loc[:3] in owned and best[0] <= d0):
                        os.append(best[1]); taken.add(best[2])
                    else:
                        os.append(f'{kind} {loc} H')
                orders[name] = os
            else:
                orders[name] = [f'{u} H' for u in power.units]
        elif phase.endswith('R'):
            os = []
            for u, opts in power.retreats.items():
                os.append(f'{u} R {opts[0]}' if opts else f'{u} D')
            orders[name] = os
        else:
            n = len(power.centers) - len(power.units)
            os = []
            if n > 0:
                free = [h for h in power.homes if h in power.centers and h not in occupied]
                for h in free[:n]:
                    opts = [o for o in possible.get(h, []) if o.endswith(' B')]
                    fleet = [o for o in opts if o.startswith('F')]
                    os.append((fleet or opts)[0] if len(power.units) % 2 else opts[0])
                os += ['WAIVE'] * (n - len(os))
            elif n < 0:
                for u in sorted(power.units)[:(-n)]:
                    os.append(f'{u} D')
            orders[name] = os
    for name, os in orders.items():
        g.set_orders(name, os)
    counts = {n: len(p.centers) for n, p in g.powers.items()}
    log.append({'phase': phase, 'orders': {n: o for n, o in orders.items() if o}, 'centres': counts})
    g.process()
    if any(len(p.centers) >= victory for p in g.powers.values()):
        log.append({'phase': g.get_current_phase(), 'centres': {n: len(p.centers) for n, p in g.powers.items()}})
        break
json.dump(log, open(sys.argv[5], 'w'), indent=1)
print(len(log), log[-1])
