"""Writes a flow folder (tests/data/flow/NNN-name/): the game's creation and the players'
joins, then one letter per power per phase of a game the MILA engine played (play.py's log),
its orders in the judge's syntax. Standard library only.

    python3 letters.py FOLDER GAME VARIANT LOG.json PLAYERS_JSON START [join-only]

PLAYERS_JSON: [[name, email, password, MILA power, power letter], ...], the first creating
the game. Run with join-only first: the judge assigns the powers, and the transcript says
which player has which.
"""
import json, sys, os, datetime

def eml(path, who, email, subject, mid, when, body):
    open(path, 'w').write(
        f"From: {who} <{email}>\nTo: judge@example.test\nSubject: {subject}\nMessage-ID: <{mid}@example.test>\n"
        f"Date: {when.strftime('%a, %-d %b %Y %H:%M:%S +0000')}\nContent-Type: text/plain; charset=utf-8\n\n{body}\n")

def title(loc):
    a, _, c = loc.partition('/')
    return a.capitalize() + ('/' + c.lower() if c else '')

def ours(order, kind):
    w = order.split()
    if kind == 'A':  # adjustments
        if w == ['WAIVE']:
            return "Waive"
        if w[-1] == 'B':
            return f"Build {w[0]} {title(w[1])}"
        if w[-1] == 'D':
            return f"Remove {w[0]} {title(w[1])}"
    if kind == 'R':
        if w[2] == 'R':
            return f"{w[0]} {title(w[1])} R {title(w[3])}"
        if w[2] == 'D':
            return f"{w[0]} {title(w[1])} D"
    out = []
    for x in w:
        out.append(title(x) if len(x) >= 3 and x not in ('VIA',) else x)
    return ' '.join(out)

def main():
    folder, game, variant, log_path, players_json, start = sys.argv[1:7]
    players = json.loads(players_json)  # [[name, email, password, POWER, letter], ...]
    log = json.load(open(log_path))
    os.makedirs(folder, exist_ok=True)
    t = datetime.datetime.fromisoformat(start)
    n = 1
    first = players[0]
    eml(f"{folder}/{n:02d}-create.eml", first[0], first[1], f"a {variant} game", f"{game}{n}", t,
        f"CREATE ?{game} {first[2]} {variant}")
    open(f"{folder}/{n:02d}a-{first[0].lower()}-confirms.confirm", 'w').write(first[1] + "\n")
    for p in players[1:]:
        n += 1; t += datetime.timedelta(minutes=30)
        eml(f"{folder}/{n:02d}-{p[0].lower()}-joins.eml", p[0], p[1], "joining", f"{game}{n}", t,
            f"SIGNON ?{game} {p[2]}")
        open(f"{folder}/{n:02d}a-{p[0].lower()}-confirms.confirm", 'w').write(p[1] + "\n")
    if len(sys.argv) > 7 and sys.argv[7] == 'join-only':
        return
    by_power = {p[3]: p for p in players}
    t += datetime.timedelta(hours=1)
    for entry in log:
        phase = entry['phase']
        if phase == 'COMPLETED' or 'orders' not in entry:
            continue
        kind = phase[-1]
        for power, orders in entry['orders'].items():
            if not orders:
                continue
            p = by_power[power]
            n += 1; t += datetime.timedelta(minutes=20)
            body = f"SIGNON {p[4]}{game} {p[2]}\n" + "\n".join(ours(o, kind) for o in orders)
            eml(f"{folder}/{n:02d}-{p[0].lower()}-{phase.lower()}.eml", p[0], p[1], phase, f"{game}{n}", t, body)

main()
