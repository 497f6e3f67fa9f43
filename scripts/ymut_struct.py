#!/usr/bin/env python3
# A structural equivalence proof for a network's mutants (scripts/mutants_yosys.sh, YMUT_LIB): the
# network's elements are black boxes in its netlist, so the Yosys proof cannot see that a switch
# reads no bit of a port in its configuration, or drives a constant on one. This elaborates each
# element as the network instantiates it (its RTL, its parameters), and proves a mutant equivalent
# when the only bit it changes is one no element reads, or an element output it sets to the
# constant the element drives there.
# usage: ymut_struct.py DIR 'LIB_RTL' 'MUTATE_LINE'   (prints the verdict, or nothing)
import json
import os
import shlex
import subprocess
import sys

BITWISE = {"$and", "$or", "$xor", "$xnor", "$not"}


def yosys_json(script, out):
    if not os.path.exists(out):
        tmp = "%s.%d.tmp" % (out, os.getpid())  # proofs may run side by side
        subprocess.run(["yosys", "-q", "-p", script + "; write_json " + tmp],
                       check=True, stdout=subprocess.DEVNULL)
        os.replace(tmp, out)
    with open(out) as f:
        return json.load(f)


def element(d, lib, typ, params):
    """The element module typ elaborated with params, flattened: (ports, read bits)."""
    key = typ + "".join("_%s%s" % (k, v) for k, v in sorted(params.items()))
    sets = "; ".join("chparam -set %s %d'b%s %s" % (k, len(v), v, typ) for k, v in sorted(params.items()))
    j = yosys_json("read_verilog -sv %s; %s%sprep -top %s; flatten; opt_clean" %
                   (lib, sets, "; " if sets else "", typ),
                   os.path.join(d, "struct", key.replace("\\", "").replace("$", "") + ".json"))
    mod = next(m for n, m in j["modules"].items() if m.get("attributes", {}).get("top"))
    read = set()
    for c in mod["cells"].values():
        for p, bits in c["connections"].items():
            if c.get("port_directions", {}).get(p) == "input":
                read.update(b for b in bits if isinstance(b, int))
    for p in mod["ports"].values():
        if p["direction"] == "output":
            read.update(b for b in p["bits"] if isinstance(b, int))
    return mod["ports"], read


def main():
    d, lib, line = sys.argv[1], sys.argv[2], sys.argv[3]
    a = shlex.split(line)
    opt = {a[i].lstrip("-"): a[i + 1] for i in range(1, len(a) - 1) if a[i].startswith("-")}
    os.makedirs(os.path.join(d, "struct"), exist_ok=True)
    top = yosys_json("read_rtlil " + os.path.join(d, "base.il"), os.path.join(d, "struct", "base.json"))
    mods = top["modules"]
    m = mods.get(opt["module"])
    if m is None or opt["cell"] not in m["cells"]:
        return
    black = {n for n, x in mods.items() if x.get("attributes", {}).get("blackbox")}
    elems = {}

    def elem(cell):
        c = m["cells"][cell]
        if cell not in elems:
            elems[cell] = element(d, lib, c["type"].lstrip("\\"), c.get("parameters", {}))
        return elems[cell]

    readers = {}
    for cn, c in m["cells"].items():
        for p, bits in c["connections"].items():
            out = c["type"] in black and mods[c["type"]]["ports"].get(p, {}).get("direction") == "output"
            if c.get("port_directions", {}).get(p, "output" if out else "input") != "input":
                continue
            for i, b in enumerate(bits):
                if isinstance(b, int):
                    readers.setdefault(b, []).append((cn, p, i))
    outs = {b for p in m["ports"].values() if p["direction"] == "output" for b in p["bits"]}
    memo = {}

    def dead(b):
        """No bit any output depends on reads top-module bit b."""
        if not isinstance(b, int):
            return True
        if b in memo:
            return memo[b]
        memo[b] = False
        ok = b not in outs
        for cn, p, i in readers.get(b, []) if ok else []:
            c = m["cells"][cn]
            if c["type"] in black:
                ports, read = elem(cn)
                ok = ports[p]["bits"][i] not in read
            elif c["type"] in BITWISE and p in ("A", "B") and i < len(c["connections"]["Y"]):
                ok = dead(c["connections"]["Y"][i])
            else:
                ok = False
            if not ok:
                break
        memo[b] = ok
        return ok

    cell, port, bit = opt["cell"], opt["port"], int(opt["portbit"])
    c = m["cells"][cell]
    mode = a[a.index("-mode") + 1]
    if c["type"] in black:
        typ = c["type"].lstrip("\\")
        ports, read = elem(cell)
        ebit = ports[port]["bits"][bit]
        if ports[port]["direction"] == "input":
            if ebit not in read:
                print("proved equivalent (structural: %s reads no %s[%d] here)" % (typ, port, bit))
            return
        k = ports[port]["bits"][int(opt["ctrlbit"])] if "ctrlbit" in opt else None
        const = {"const0": "0", "const1": "1"}.get(mode)
        if (const is not None and ebit == const) or (mode == "cnot1" and k == "0") or (mode == "cnot0" and k == "1"):
            what = "the constant %s on %s[%d]" % (ebit, port, bit) if isinstance(ebit, str) else "%s[%d]" % (port, bit)
            print("proved equivalent (structural: %s drives %s%s)" %
                  (typ, what, "" if k is None else "; the constant %s on its control bit %s" % (k, opt["ctrlbit"])))
        elif dead(c["connections"][port][bit]):
            print("proved equivalent (structural: nothing reads %s's %s[%d] here)" % (typ, port, bit))
        return
    if c["type"] in BITWISE and port in ("A", "B", "Y"):
        y = c["connections"]["Y"]
        if bit < len(y) and dead(y[bit]):
            print("proved equivalent (structural: %s's Y[%d] reaches only bits no element reads)" % (c["type"], bit))


if __name__ == "__main__":
    main()
