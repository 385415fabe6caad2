import LeitnerCore

print("leitner-bench: not yet built")
