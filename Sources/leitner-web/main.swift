import Glibc
import LeitnerSystem

exit(WebMain.main(arguments: ProgramArguments.current()))
