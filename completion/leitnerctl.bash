# bash completion for leitnerctl(1): commands, their flags, levels, files and directories.
# Card ids are not completed: that would start a daemon (autostart) on a mere <Tab>.
# Works with plain bash; the bash-completion package is not needed.

# Files (or, with -d, directories) matching the word being completed, names with blanks intact.
_leitnerctl_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    if [[ $1 == -d ]]; then
        COMPREPLY=($(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

# The names of the boxes (R29), read from the disk as `leitnerctl boxes` finds them: each
# directory of $XDG_DATA_HOME/leitner/boxes and each NAME.conf of $XDG_CONFIG_HOME/leitner but
# the default box's leitner.conf. Read from the disk, not asked of a daemon, as card ids are not.
_leitnerctl_boxes() {
    local data=${XDG_DATA_HOME:-$HOME/.local/share} config=${XDG_CONFIG_HOME:-$HOME/.config}
    [[ $data == /* ]] || data=$HOME/.local/share
    [[ $config == /* ]] || config=$HOME/.config
    local path names=()
    for path in "$data"/leitner/boxes/*/ "$config"/leitner/*.conf; do
        [[ -e $path ]] || continue
        path=${path%/}
        path=${path##*/}
        path=${path%.conf}
        [[ $path == leitner || $path == leitnerd || $path == [.-]* ]] || names+=("$path")
    done
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$(printf '%s\n' "${names[@]}" | sort -u)" -- "$cur"))
}

_leitnerctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local -a words=("${COMP_WORDS[@]}")
    local cword=$COMP_CWORD

    local commands="status review practice prepare add import export list search find show edit rename move suspend unsuspend
        delete reverse undo calendar log doctor stats tag untag tags next grade web stop boxes help"
    local globals="--config --socket --box --json --no-autostart --help --version"
    local levels="1 2 3 4 5 6 7 finished new suspended"

    # The command is the first word that is neither a global flag nor a global flag's value.
    local i command="" nargs=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --config | --socket | --box) ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then
                    command=${words[i]}
                else
                    ((nargs++))
                fi
                ;;
        esac
    done

    case $prev in
        --config | --socket | --front-file | --back-file | --html)
            _leitnerctl_files
            return
            ;;
        --dir)
            _leitnerctl_files -d
            return
            ;;
        --box)
            _leitnerctl_boxes
            return
            ;;
        --level)
            COMPREPLY=($(compgen -W "$levels" -- "$cur"))
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W "tsv csv anki" -- "$cur"))
            return
            ;;
        --sort)
            COMPREPLY=($(compgen -W "id level added" -- "$cur"))
            return
            ;;
        --as)
            COMPREPLY=($(compgen -W "txt md" -- "$cur"))
            return
            ;;
        --images)
            COMPREPLY=($(compgen -W "auto kitty iterm sixel blocks none" -- "$cur"))
            return
            ;;
        --keep)
            COMPREPLY=($(compgen -W "mine theirs" -- "$cur"))
            return
            ;;
        --id | --since | --limit | --time | --days | --leeches | --resolve | --listen | --tag | --not-tag | --search | --wrong-days)
            return
            ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$globals" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local flags="--help"
    case $command in
        review) flags+=" --plain --images --tag --not-tag --level" ;;
        practice) flags+=" --tag --not-tag --level --search --wrong-days --limit --shuffle --plain --images" ;;
        add) flags+=" --front-file --back-file --id --level --force --tag --reverse" ;;
        import) flags+=" --format --level --with-levels --quiet --tag --reverse" ;;
        export) flags+=" --dir --with-levels --force --tag --not-tag" ;;
        list) flags+=" --long --sort --tag --not-tag" ;;
        search | find) flags+=" --regex --front --back --level --ids --tag --not-tag" ;;
        tags) flags+=" --tag --not-tag" ;;
        edit) flags+=" --front --back --as --front-file --back-file" ;;
        delete) flags+=" --yes --keep-reverses" ;;
        reverse) flags+=" --id --level" ;;
        log) flags+=" --since --limit --all" ;;
        stats) flags+=" --days --leeches --html --tag --not-tag" ;;
        doctor) flags+=" --resolve --keep" ;;
        grade) flags+=" --time" ;;
        web) flags+=" --listen --new-token" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi

    case $command in
        help)
            ((nargs == 0)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
        import)
            ((nargs == 0)) && _leitnerctl_files
            ;;
        list | export)
            ((nargs == 0)) && COMPREPLY=($(compgen -W "$levels" -- "$cur"))
            ;;
        move)
            ((nargs == 1)) && COMPREPLY=($(compgen -W "$levels" -- "$cur"))
            ;;
        grade)
            ((nargs == 1)) && COMPREPLY=($(compgen -W "correct wrong" -- "$cur"))
            ;;
    esac
} &&
    complete -F _leitnerctl leitnerctl
