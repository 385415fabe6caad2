import Glibc
import LeitnerSystem

exit(CtlMain.main(arguments: ProgramArguments.current()))
