import Glibc
import LeitnerSystem

exit(Daemon.main(arguments: ProgramArguments.current()))
