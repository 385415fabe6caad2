"""The candidates the real shells offer for a command line, with leitnerctl's completion loaded
as each shell loads it: bash's completion function called as bash calls it, fish's `complete -C`,
and zsh's completion system itself (compinit), driven in a pseudo-terminal as a person at a
prompt would: the words typed, then Tab."""
import pathlib
import shlex
import shutil
import subprocess

# Types the line and a Tab into an interactive `zsh -f` in a pseudo-terminal (zpty), after
# compinit with the directory of _leitnerctl first in $fpath. A wrapper of `compadd` writes each
# candidate the completion system offers to a file, and a function of `comppostfuncs` writes a
# second file when the completion has ended; then the candidates are printed.
ZSH_DRIVER = r"""
zmodload zsh/zpty
dir=$1 line=$2 tmp=$(mktemp -d)
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "compadd() { local -a hits; builtin compadd -O hits \"\$@\"; print -rl -- \$hits >> ${(q)tmp}/candidates; builtin compadd \"\$@\"; }"
zpty -w z "comppostfuncs=(finished); finished() { : > ${(q)tmp}/done; }; bindkey '^I' complete-word"
zpty -n -w z "$line"$'\t'
for i in {1..100}; do
  while zpty -r -t z chunk; do :; done
  [[ -e $tmp/done ]] && break
  sleep 0.1
done
zpty -d z
[[ -e $tmp/done ]] || { print -u2 "zsh did not finish completing '$line'"; rm -rf $tmp; exit 2; }
[[ -e $tmp/candidates ]] && cat $tmp/candidates
rm -rf $tmp
"""


def bash(script: pathlib.Path, line: str, env: dict) -> list[str]:
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    program = (f"source {shlex.quote(str(script))}; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
               f"COMP_CWORD={len(words) - 1}; _leitnerctl; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, env=env,
                            timeout=30)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return [w for w in result.stdout.split("\n") if w]


def fish(script: pathlib.Path, line: str, env: dict) -> set[str]:
    program = f"source {shlex.quote(str(script))}; complete -C {shlex.quote(line)}"
    result = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    # Each line is CANDIDATE, a tab and its description.
    return {w.split("\t")[0] for w in result.stdout.split("\n") if w}


def zsh(function_dir: pathlib.Path, line: str, env: dict) -> set[str]:
    result = subprocess.run(["zsh", "-f", "-c", ZSH_DRIVER, "zsh", str(function_dir), line], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return {w for w in result.stdout.split("\n") if w}


def installed(shell: str) -> bool:
    return shutil.which(shell) is not None
