import LeitnerCore

// The daemon is built in its own issue; until then it only names itself.
print("leitnerd: not yet built")
