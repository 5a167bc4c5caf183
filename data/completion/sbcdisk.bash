# bash completion for sbcdisk                                   -*- shell-script -*-
# The commands, options and lists come from the program itself (its tables, through the
# hidden `sbcdisk __complete`, and the usage lines of `sbcdisk CMD --help`), so they cannot
# drift from it.

# The options of CMD (the global ones when CMD is empty), from its option table.
_sbcdisk_options()
{
	"$1" __complete options ${2:+"$2"} 2>/dev/null
}

# Is $1 one of the other arguments?
_sbcdisk_has()
{
	local w=$1 o
	shift
	for o; do [ "$o" = "$w" ] && return 0; done
	return 1
}

# The subcommands of CMD, as its usage lines spell them ("sbcdisk fix uas ...").
_sbcdisk_subcommands()
{
	"$1" "$2" --help 2>/dev/null |
		sed -n "s/^\(Usage:\)\{0,1\} *sbcdisk $2 \([a-z][a-z0-9-]*\).*/\2/p"
}

_sbcdisk()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local sb=${COMP_WORDS[0]} cmd= sub= db= w i npos=0
	local -a glob=() words=() valopts=()

	# the options that take a value: their value is not a command or an operand
	mapfile -t valopts < <("$sb" __complete value-options 2>/dev/null)
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--sysroot) glob=(--sysroot "${COMP_WORDS[i + 1]}"); ((i++)); continue ;;
		--sysroot=*) glob=("$w") ;;
		--db) db=${COMP_WORDS[i + 1]}; ((i++)); continue ;;
		--db=*) db=${w#--db=} ;;
		-*)
			if _sbcdisk_has "$w" "${valopts[@]}"; then
				[ -n "$cmd" ] && ((i++))
				continue
			fi ;;
		*)
			if [ -z "$cmd" ]; then cmd=$w; else
				[ "$npos" -eq 0 ] && sub=$w
				npos=$((npos + 1))
			fi ;;
		esac
	done

	COMPREPLY=()
	case $prev in
	--sysroot | --textfile)
		compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	--db | --kmsg | --export | --import)
		compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
	--profile)
		mapfile -t words < <("$sb" __complete profiles 2>/dev/null) ;;
	--engine)
		mapfile -t words < <("$sb" __complete engines 2>/dev/null) ;;
	--fail-on)
		mapfile -t words < <("$sb" __complete levels 2>/dev/null) ;;
	--device)
		mapfile -t words < <("$sb" "${glob[@]}" __complete devices 2>/dev/null) ;;
	-o | --output)
		if [ "$cmd" = list ]; then
			mapfile -t words < <("$sb" list -o help 2>/dev/null |
				awk 'NR > 1 && NF { print $1 }')
		else
			compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return
		fi ;;
	*)
		# a value no list holds (a size, a date, a count)
		_sbcdisk_has "$prev" "${valopts[@]}" && [ -n "$cmd" ] && return ;;
	esac
	if [ "${#words[@]}" -gt 0 ]; then
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
		return
	fi

	if [[ $cur == -* ]]; then
		mapfile -t words < <({ _sbcdisk_options "$sb" "$cmd"
			[ -n "$cmd" ] && _sbcdisk_options "$sb"; } | sort -u)
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
		return
	fi
	if [ -z "$cmd" ]; then
		mapfile -t words < <("$sb" __complete commands 2>/dev/null)
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
		return
	fi
	mapfile -t words < <(_sbcdisk_subcommands "$sb" "$cmd")
	if [ "${#words[@]}" -gt 0 ] && [ "$npos" -eq 0 ]; then
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
		return
	fi
	case $cmd in
	compare | report)
		mapfile -t words < <("$sb" __complete runs "$db" 2>/dev/null)
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur") ;;
	bench | verify | move | prepare)
		compopt -o filenames 2>/dev/null
		mapfile -t words < <("$sb" "${glob[@]}" __complete devices 2>/dev/null)
		mapfile -t COMPREPLY < <({ compgen -W "${words[*]/#//dev/}" -- "$cur"
			compgen -f -- "$cur"; } | sort -u) ;;
	fix)
		[ "$sub" = uas ] && [ "$npos" -eq 1 ] || return
		mapfile -t words < <("$sb" "${glob[@]}" __complete devices 2>/dev/null)
		mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur") ;;
	esac
}
complete -F _sbcdisk sbcdisk
