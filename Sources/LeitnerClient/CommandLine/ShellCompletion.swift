/// The shells `ShellCompletion` writes for.
public enum CompletionShell: String, Sendable, CaseIterable {
    case bash, zsh, fish
}

/// A program's completion for bash, zsh or fish, written from its command table, as
/// swift-argument-parser writes it from its commands: the commands with their abstracts, each
/// command's options and the globals, the values an option or an argument takes (`ArgumentValues`),
/// files and directories, and the boxes' names, read from the disk. Nothing asks the daemon: a
/// Tab must not start one. Each script finds the command and counts its arguments as the parser
/// does, skipping the options and the values they take, wherever they stand.
public struct ShellCompletion: Sendable {
    let program: String
    let commands: [CommandSpec]
    let globals: [OptionSpec]

    public init(program: String, commands: [CommandSpec], globals: [OptionSpec]) {
        self.program = program
        self.commands = commands
        self.globals = globals
    }

    /// The script for `shell`, to be sourced (bash), autoloaded from `fpath` as `_PROGRAM` (zsh),
    /// or read from a completions directory (fish).
    public func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: The facts every shell needs

    /// The values as a word the scripts pass around: `@file`, `@directory`, `@box`, `@any`, or
    /// the words to offer separated by spaces.
    func word(_ values: ArgumentValues) -> String {
        switch values {
        case .any: "@any"
        case .file: "@file"
        case .directory: "@directory"
        case .box: "@box"
        case .command: commands.map(\.name).joined(separator: " ")
        case .oneOf(let words): words.joined(separator: " ")
        }
    }

    /// Every option that takes a value, with the command it belongs to (nil: a global, taken
    /// anywhere), a command's own first as the parser looks for them.
    var valuedOptions: [(command: String?, option: OptionSpec)] {
        commands.flatMap { command in command.options.filter { $0.valueName != nil }.map { (command.name, $0) } }
            + globals.filter { $0.valueName != nil }.map { (nil, $0) }
    }

    /// The arguments whose values can be offered: command, position, values.
    var offeredArguments: [(command: String, index: Int, values: ArgumentValues)] {
        commands.flatMap { command in
            (0..<min(command.arguments.upperBound, 8)).compactMap { index in
                let values = command.argumentValues(at: index)
                return values == .any ? nil : (command.name, index, values)
            }
        }
    }

    /// The globals offered after a command: `--version` is taken only before one.
    var globalsAfterCommand: [OptionSpec] {
        globals.filter { $0.name != "--version" }
    }

    /// `text` in single quotes for a POSIX shell.
    func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// The names of the boxes (R29) as `leitnerctl boxes` finds them: each directory of
    /// $XDG_DATA_HOME/leitner/boxes and each NAME.conf of $XDG_CONFIG_HOME/leitner but the default
    /// box's leitner.conf. A script for sh, which each of the three shells runs as `sh -c`, so
    /// that it is written once.
    static let boxNames = #"""
        data=${XDG_DATA_HOME:-$HOME/.local/share}; config=${XDG_CONFIG_HOME:-$HOME/.config}
        case $data in /*) ;; *) data=$HOME/.local/share ;; esac
        case $config in /*) ;; *) config=$HOME/.config ;; esac
        for entry in "$data"/leitner/boxes/*/ "$config"/leitner/*.conf; do
          [ -e "$entry" ] || continue
          entry=${entry%/}; entry=${entry##*/}; entry=${entry%.conf}
          case $entry in leitner|leitnerd|.*|-*) ;; *) printf '%s\n' "$entry" ;; esac
        done | sort -u
        """#

    // MARK: bash

    var bash: String {
        let name = "_" + program.replacing("-", with: "_")
        var out = """
            # bash completion for \(program)(1), printed by '\(program) completion bash' from its command
            # table: commands, options, the values they take, files, and the boxes' names (read from
            # the disk: nothing asks the daemon). Works with plain bash; bash-completion is not needed.

            # The kind of value option $2 of command $1 takes (in REPLY); fails for a flag.
            \(name)_value() {
                case "$1 $2" in

            """
        for (command, option) in valuedOptions {
            out += "        \(quoted("\(command ?? "*") \(option.name)").replacing("'*", with: "*'")))"
                + " REPLY=\(quoted(word(option.values))) ;;\n"
        }
        out += """
                    *) return 1 ;;
                esac
            }

            # The kind of value argument $2 (from 0) of command $1 takes (in REPLY); fails for any.
            \(name)_argument() {
                case "$1 $2" in

            """
        for (command, index, values) in offeredArguments {
            out += "        \(quoted("\(command) \(index)"))) REPLY=\(quoted(word(values))) ;;\n"
        }
        out += """
                    *) return 1 ;;
                esac
            }

            # The options offered after command $1 (empty: before a command): its own, then the globals.
            \(name)_options() {
                case $1 in

            """
        for command in commands where !command.options.isEmpty {
            out += "        \(quoted(command.name))) REPLY=\(quoted(command.options.map(\.name).joined(separator: " "))) ;;\n"
        }
        out += """
                    '') REPLY=\(quoted(globals.map(\.name).joined(separator: " "))); return ;;
                    *) REPLY='' ;;
                esac
                REPLY+=\(quoted(" " + globalsAfterCommand.map(\.name).joined(separator: " ")))
            }

            # The script that prints the boxes' names, for sh.
            \(name)_boxes=\(quoted(Self.boxNames))

            # Offers the values a kind stands for.
            \(name)_offer() {
                local IFS=$'\\n'
                case $1 in
                    @any) ;;
                    @file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
                    @directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
                    @box) COMPREPLY=($(compgen -W "$(sh -c "$\(name)_boxes")" -- "$cur")) ;;
                    *) COMPREPLY=($(IFS=' '; compgen -W "$1" -- "$cur")) ;;
                esac
            }

            \(name)() {
                local cur=${COMP_WORDS[COMP_CWORD]} command='' wanted='' word REPLY i nargs=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    if [[ $word == -* ]]; then
                        [[ $word == --*=* ]] && continue
                        if \(name)_value "$command" "$word"; then
                            ((i + 1 == COMP_CWORD)) && wanted=$REPLY
                            ((i++))
                        fi
                    elif [[ -z $command ]]; then
                        command=$word
                    else
                        ((nargs++))
                    fi
                done
                if [[ -n $wanted ]]; then
                    \(name)_offer "$wanted"
                elif [[ $cur == -* ]]; then
                    \(name)_options "$command"
                    \(name)_offer "$REPLY"
                elif [[ -z $command ]]; then
                    \(name)_offer \(quoted(word(.command)))
                elif \(name)_argument "$command" "$nargs"; then
                    \(name)_offer "$REPLY"
                fi
            }
            complete -F \(name) \(program)

            """
        return out
    }

    // MARK: zsh

    /// `text` for the description half of a `_describe` entry: its colons escaped.
    func described(_ name: String, _ text: String) -> String {
        quoted(name.replacing(":", with: #"\:"#) + ":" + text)
    }

    var zsh: String {
        let name = "_" + program.replacing("-", with: "_")
        var out = """
            #compdef \(program)
            # zsh completion for \(program)(1), printed by '\(program) completion zsh' from its command
            # table: commands and options with their help, the values they take, files, and the
            # boxes' names (read from the disk: nothing asks the daemon). Installed as \(name) in a
            # directory of $fpath, for compinit.

            # The kind of value option $2 of command $1 takes (in REPLY); fails for a flag.
            \(name)_value() {
              case "$1 $2" in

            """
        for (command, option) in valuedOptions {
            out += "    (\(quoted("\(command ?? "*") \(option.name)").replacing("'*", with: "*'"))) REPLY=\(quoted(word(option.values))) ;;\n"
        }
        out += """
                (*) return 1 ;;
              esac
            }

            # The kind of value argument $2 (from 0) of command $1 takes (in REPLY); fails for any.
            \(name)_argument() {
              case "$1 $2" in

            """
        for (command, index, values) in offeredArguments {
            out += "    (\(quoted("\(command) \(index)"))) REPLY=\(quoted(word(values))) ;;\n"
        }
        out += """
                (*) return 1 ;;
              esac
            }

            # Offers the options of command $1 (empty: before a command) with their help: its own,
            # then the globals.
            \(name)_options() {
              local -a options
              case $1 in

            """
        for command in commands where !command.options.isEmpty {
            out += "    (\(quoted(command.name))) options=(\n" + command.options.map { "      " + described($0.name, $0.help) + "\n" }.joined()
                + "    ) ;;\n"
        }
        out += "  esac\n  options+=(\n" + globalsAfterCommand.map { "    " + described($0.name, $0.help) + "\n" }.joined() + "  )\n"
        for option in globals where !globalsAfterCommand.contains(option) {
            out += "  [[ -z $1 ]] && options+=(\(described(option.name, option.help)))\n"
        }
        out += """
              _describe -t options option options
            }

            # Offers the values a kind stands for.
            \(name)_offer() {
              local -a boxes
              case $1 in
                (@any) _message value ;;
                (@file) _files ;;
                (@directory) _files -/ ;;
                (@box)
                  boxes=(${(f)"$(sh -c \(quoted(Self.boxNames)))"})
                  compadd -a boxes ;;
                (*) compadd -- ${=1} ;;
              esac
            }

            \(name)() {
              local command= wanted= word REPLY
              local -a commands
              integer i nargs=0
              for (( i = 2; i < CURRENT; i++ )); do
                word=$words[i]
                if [[ $word == -* ]]; then
                  [[ $word == --*=* ]] && continue
                  if \(name)_value "$command" "$word"; then
                    (( i + 1 == CURRENT )) && wanted=$REPLY
                    (( i++ ))
                  fi
                elif [[ -z $command ]]; then
                  command=$word
                else
                  (( nargs++ ))
                fi
              done
              if [[ -n $wanted ]]; then
                \(name)_offer "$wanted"
              elif [[ $PREFIX == -* ]]; then
                \(name)_options "$command"
              elif [[ -z $command ]]; then
                commands=(

            """
        for command in commands {
            out += "      \(described(command.name, command.abstract))\n"
        }
        out += """
                )
                _describe -t commands command commands
              elif \(name)_argument "$command" $nargs; then
                \(name)_offer "$REPLY"
              fi
            }

            \(name) "$@"

            """
        return out
    }

    // MARK: fish

    /// `text` in single quotes for fish, where a backslash escapes a quote and itself.
    func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The `complete` arguments that offer `values` after an option or as an argument.
    func fishValues(_ values: ArgumentValues) -> String {
        let function = "__" + program.replacing("-", with: "_")
        switch values {
        case .any: return "-x"
        case .file: return "-r -F"
        case .directory: return "-x -a '(__fish_complete_directories (commandline -ct))'"
        case .box: return "-x -a '(\(function)_boxes)'"
        case .command, .oneOf: return "-x -a \(fishQuoted(word(values)))"
        }
    }

    /// `complete`'s option flags for `option`: `-l level` and its one-letter alias, `-s y`.
    func fishFlags(_ option: OptionSpec) -> String {
        var flags = "-l " + option.name.dropFirst(2)
        if let short = option.short { flags += " -s " + short.dropFirst() }
        return flags
    }

    /// The rest of an option's `complete` line: its names, the values it takes, its help.
    func fishOption(_ option: OptionSpec) -> String {
        fishFlags(option) + (option.valueName == nil ? "" : " " + fishValues(option.values)) + " -d \(fishQuoted(option.help))\n"
    }

    var fish: String {
        let function = "__" + program.replacing("-", with: "_")
        var out = """
            # fish completion for \(program)(1), printed by '\(program) completion fish' from its command
            # table: commands and options with their help, the values they take, files, and the
            # boxes' names (read from the disk: nothing asks the daemon).

            # Whether option $argv[2] of command $argv[1] takes a value.
            function \(function)_takes_value
                switch "$argv[1] $argv[2]"
                    case
            """
        // A quoted pattern of `case` still matches as a wildcard in fish, and is not a file glob.
        out += valuedOptions.map { " " + fishQuoted("\($0.command ?? "*") \($0.option.name)") }.joined()
        out += """

                        return 0
                end
                return 1
            end

            # The command (- for none), the number of its arguments before the cursor, and 1 when
            # the word at the cursor is an option's value, as the parser reads the line.
            function \(function)_state
                set -l command -
                set -l nargs 0
                set -l value 0
                for word in (commandline -opc)[2..-1]
                    if test $value = 1
                        set value 0
                    else if string match -q -- '--*=*' $word
                    else if string match -q -- '-*' $word
                        \(function)_takes_value $command $word; and set value 1
                    else if test $command = -
                        set command $word
                    else
                        set nargs (math $nargs + 1)
                    end
                end
                printf '%s\\n' $command $nargs $value
            end

            # True after command $argv[1] (- for none).
            function \(function)_in
                set -l state (\(function)_state)
                test "$state[1]" = $argv[1]
            end

            # True at argument $argv[2] (from 0) of command $argv[1] (- for none), not an option's value.
            function \(function)_at
                set -l state (\(function)_state)
                test "$state[1]" = $argv[1] -a "$state[2]" = $argv[2] -a "$state[3]" = 0
            end

            function \(function)_boxes
                sh -c \(fishQuoted(Self.boxNames))
            end

            complete -c \(program) -f

            """
        for command in commands {
            out += "complete -c \(program) -n '\(function)_at - 0' -a \(fishQuoted(command.name)) -d \(fishQuoted(command.abstract))\n"
        }
        // The globals after any command too, but `--version`, which only stands before one.
        for option in globals {
            out += "complete -c \(program) " + (option.name == "--version" ? "-n '\(function)_in -' " : "") + fishOption(option)
        }
        for command in commands {
            for option in command.options {
                out += "complete -c \(program) -n '\(function)_in \(command.name)' " + fishOption(option)
            }
        }
        for (command, index, values) in offeredArguments {
            out += "complete -c \(program) -n '\(function)_at \(command) \(index)' \(fishValues(values))\n"
        }
        return out
    }
}
