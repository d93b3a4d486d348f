# shufflebias.bash - bash completion for shufflebias.
#
# Installed as share/bash-completion/completions/shufflebias, or sourced
# from ~/.bashrc.  Every name it offers - commands, the options of each
# command, algorithms, statistics, randomness sources, kinds and formats -
# is asked of the program itself ('shufflebias list --names WHAT' and
# 'shufflebias list --options COMMAND'), so that it never goes stale;
# only the two verdicts of --expect are written here.
# It needs bash alone, not the bash-completion package.

# The names 'list --names' gives for $2, from the program $1.
_shufflebias_names()
{
    "$1" list --names "$2" 2>/dev/null
}

# COMPREPLY: the words of $1 (one a line) that begin with $2.
_shufflebias_offer()
{
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$1" -- "$2"))
}

_shufflebias()
{
    local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    # "--tests=a,b": bash splits the word at '=' (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    if ((COMP_CWORD == 1)); then
        if [[ $cur == -* ]]; then
            _shufflebias_offer $'-h\n--help\n-V\n--version' "$cur"
        else
            _shufflebias_offer "$(_shufflebias_names "$prog" commands)" "$cur"
        fi
        return 0
    fi
    local cmd=${COMP_WORDS[1]}
    if [[ $cmd == help ]]; then
        ((COMP_CWORD == 2)) &&
            _shufflebias_offer "$(_shufflebias_names "$prog" commands |
                                  grep -vx help)" "$cur"
        return 0
    fi

    # The option before the word, when it takes an argument.
    local options
    options=$("$prog" list --options "$cmd" 2>/dev/null) || return 0
    local line takes=
    while read -r line; do
        if [[ ${line%% *} == "$prev" && $line == *' '* ]]; then
            takes=1
        fi
    done <<<"$options"
    if [[ -n $takes ]]; then
        case $prev in
        --input|--plugin|--json|--state|--resume|--markdown|--html|--junit|--baseline|--write-baseline)
            compopt -o filenames 2>/dev/null
            local IFS=$'\n'
            COMPREPLY=($(compgen -f -- "$cur"))
            ;;
        --exec)
            local IFS=$'\n'
            COMPREPLY=($(compgen -c -- "$cur"))
            ;;
        --csv)
            compopt -o dirnames 2>/dev/null
            local IFS=$'\n'
            COMPREPLY=($(compgen -d -- "$cur"))
            ;;
        --tests)
            # A comma-separated list: complete its last name, keep the
            # names before it.
            local done= last=$cur
            if [[ $cur == *,* ]]; then
                done=${cur%,*},
                last=${cur##*,}
            fi
            _shufflebias_offer "$(_shufflebias_names "$prog" statistics)" \
                "$last"
            local i
            for i in "${!COMPREPLY[@]}"; do
                COMPREPLY[i]=$done${COMPREPLY[i]}
            done
            compopt -o nospace 2>/dev/null
            ;;
        --rng)
            # reseed32:NAME is a pattern, not a name.
            _shufflebias_offer "$(_shufflebias_names "$prog" rngs |
                                  grep -v :)" "$cur"
            ;;
        --kind)
            _shufflebias_offer "$(_shufflebias_names "$prog" kinds)" "$cur"
            ;;
        --format)
            _shufflebias_offer "$(_shufflebias_names "$prog" formats)" "$cur"
            ;;
        --expect)
            # The verdicts a command can be held to (its --help says
            # them; tests/test_completion.py checks that it takes them).
            case $cmd in
            test) _shufflebias_offer $'pass\nfail' "$cur" ;;
            exact) _shufflebias_offer $'uniform\nbiased' "$cur" ;;
            esac
            ;;
        --names)
            _shufflebias_offer $'algorithms\nstatistics\nrngs\ncommands\nkinds\nformats' "$cur"
            ;;
        --options)
            _shufflebias_offer "$(_shufflebias_names "$prog" commands |
                                  grep -vx help)" "$cur"
            ;;
        esac
        return 0
    fi

    if [[ $cur == -* ]]; then
        _shufflebias_offer "$(cut -d' ' -f1 <<<"$options")" "$cur"
        return 0
    fi
    case $cmd in
    test|exact|bench|mixing)
        _shufflebias_offer "$(_shufflebias_names "$prog" algorithms)" "$cur"
        ;;
    merge|gate)
        compopt -o filenames 2>/dev/null
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    esac
    return 0
}

complete -F _shufflebias shufflebias
