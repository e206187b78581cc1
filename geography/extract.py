#!/usr/bin/env python3
"""Makes geography/land.txt, the land of the whole world, from Natural Earth's 1:50m land
polygons as the npm package world-atlas carries them (TopoJSON).

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python3 geography/extract.py package/land-50m.json > geography/land.txt

Standard library only. Each polygon's rings are decoded from the topology (delta-encoded,
quantised arcs); a ring crossing the antimeridian (Eurasia by Chukotka, Wrangel Island, a
piece of Fiji) is unwrapped eastward, its far side taken east of +180, so no ring jumps
across the world; Antarctica, which goes round the pole, is left as it is. Each ring is
clipped to the box below (Sutherland-Hodgman against each side), rounded to 0.01 degree
with repeated points dropped, and written one ring a line: `outer` or `hole`, then `lon,lat`
pairs. Rings under MIN_AREA square degrees are left out (rocks and islets). A map whose
frame crosses the antimeridian draws each ring again 360 degrees east or west where it
falls in the frame (`src/atlas/partition.rs`).
"""
import json
import sys

WEST, EAST, SOUTH, NORTH = -180.0, 540.0, -86.0, 86.0
MIN_AREA = 0.004


def decode_arcs(topo):
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def ring(arcs, indices):
    points = []
    for i in indices:
        arc = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
        points.extend(arc if not points else arc[1:])
    return points


def unwrap(points):
    """A ring crossing the antimeridian (Eurasia, by Chukotka) with its far side taken east of
    +180, so it does not jump across the whole world; Antarctica, round the pole, as it is."""
    crosses = any(x > 100 for x, _ in points) and any(x < -100 for x, _ in points)
    if crosses and min(y for _, y in points) > -60:
        return [(x + 360 if x < -100 else x, y) for x, y in points]
    return points


def on_edge(p):
    return p[0] in (WEST, EAST) or p[1] in (SOUTH, NORTH)


def clip(points, inside, cross):
    out = []
    for i, cur in enumerate(points):
        prev = points[i - 1]
        if inside(cur):
            if not inside(prev):
                out.append(cross(prev, cur))
            out.append(cur)
        elif inside(prev):
            out.append(cross(prev, cur))
    return out


def at_x(x):
    return lambda a, b: (x, a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]))


def at_y(y):
    return lambda a, b: (a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]), y)


def clip_box(points):
    for inside, cross in (
        (lambda p: p[0] >= WEST, at_x(WEST)),
        (lambda p: p[0] <= EAST, at_x(EAST)),
        (lambda p: p[1] >= SOUTH, at_y(SOUTH)),
        (lambda p: p[1] <= NORTH, at_y(NORTH)),
    ):
        if not points:
            return points
        points = clip(points, inside, cross)
    return points


def area(points):
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))) / 2


def main():
    topo = json.load(open(sys.argv[1]))
    arcs = decode_arcs(topo)
    print("# Natural Earth 1:50m land (public domain), from the npm package world-atlas 2.0.2")
    print(f"# (Natural Earth 4.1.0); box lon {WEST}..{EAST}, lat {SOUTH}..{NORTH}; made by geography/extract.py")
    for geometry in topo["objects"]["land"]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for polygon in polygons:
            for n, indices in enumerate(polygon):
                points = clip_box(unwrap(ring(arcs, indices)[:-1]))
                if all(on_edge(p) for p in points):
                    continue
                rounded = []
                for x, y in points:
                    p = (round(x, 2), round(y, 2))
                    if not rounded or rounded[-1] != p:
                        rounded.append(p)
                while len(rounded) > 1 and rounded[0] == rounded[-1]:
                    rounded.pop()
                if len(rounded) < 3 or area(rounded) < MIN_AREA:
                    continue
                kind = "outer" if n == 0 else "hole"
                print(kind, " ".join(f"{x:g},{y:g}" for x, y in rounded))


if __name__ == "__main__":
    main()
