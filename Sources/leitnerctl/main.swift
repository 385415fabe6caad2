import LeitnerCore

print("leitnerctl: not yet built")
