# bash completion for accelsizer(1)                      -*- shell-script -*-
#
# Installed as $(datadir)/bash-completion/completions/accelsizer; or source
# this file from ~/.bashrc.  Needs nothing but bash (the bash-completion
# package is not required).
#
# What comes from where, so that it stays in step with the program:
#   - each command's options: parsed from 'accelsizer COMMAND --help' (once
#     per shell and command);
#   - accelerator, model, platform and fabric ids: the first column of
#     'accelsizer catalog list [--models|--platforms|--fabrics]', read from
#     the catalog the command line names with --catalog, if any;
#   - the values of --workload, --precision, --objective and the other
#     choices: the lists below (tests/cli/completion.sh checks each one
#     against the program's own error message).

_accelsizer_workloads='inference pretrain finetune'
_accelsizer_precisions='fp32 bf16 fp16 fp8 int8 int4 fp4 mxfp4 w8a16'
_accelsizer_recomputes='auto none selective full'
_accelsizer_methods='full lora qlora'
_accelsizer_stacks='any cuda rocm gaudi'
_accelsizer_serving_stacks='auto tensorrt-llm vllm sglang optimum-habana'
_accelsizer_training_stacks='auto nemo meta automodel megatron-deepspeed'
_accelsizer_forms='any sxm-oam pcie'
_accelsizer_objectives='capex cost-per-token time gpus perf-per-watt tco'
_accelsizer_formats='table csv yaml'
_accelsizer_proposal_formats='html md'
_accelsizer_themes='dark light high-contrast mono'
_accelsizer_commands='recommend validate bom proposal sweep catalog accuracy compare'

# The program the user is completing for: the word they typed, with a
# leading ~/ expanded; "accelsizer" from $PATH when that is not runnable.
_accelsizer_prog() {
	local p=${COMP_WORDS[0]}
	[[ $p == "~/"* ]] && p=$HOME/${p#"~/"}
	if [[ $p == */* ]]; then
		[[ -x $p ]] || p=accelsizer
	else
		type -P -- "$p" >/dev/null 2>&1 || p=accelsizer
	fi
	printf '%s' "$p"
}

# Long and short options a command's --help lists (for the wizard, the
# top-level --help's options).  Cached per program and command.
declare -gA _accelsizer_opt_cache 2>/dev/null || declare -A _accelsizer_opt_cache
_accelsizer_options() {
	local prog=$1 cmd=$2 key="$1|$2" text
	if [[ -z ${_accelsizer_opt_cache[$key]+set} ]]; then
		if [[ -n $cmd ]]; then
			text=$("$prog" "$cmd" --help 2>/dev/null)
		else
			# the wizard's options only: the lines before the first
			# "Run 'accelsizer COMMAND --help'" hint
			text=$("$prog" --help 2>/dev/null | sed -n '/^Wizard options/,/^$/p')
		fi
		_accelsizer_opt_cache[$key]=$(printf '%s\n' "$text" |
			grep -oE '(^|[[:space:]]|\[)--?[a-zA-Z][-a-zA-Z0-9]*' |
			sed 's/^[[:space:][]*//' | sort -u | tr '\n' ' ')
	fi
	printf '%s' "${_accelsizer_opt_cache[$key]}"
}

# Ids from one of the catalog list tables (skipping the header line).
_accelsizer_ids() {
	local prog=$1 catalog=$2
	shift 2
	local args=(catalog list "$@")
	[[ -n $catalog ]] && args+=(--catalog "$catalog")
	"$prog" "${args[@]}" 2>/dev/null |
		awk 'NR > 1 && $1 ~ /^[a-z0-9][a-z0-9._-]*$/ { print $1 }'
}

# Files ending in one of the given suffixes, and folders to walk into; any
# file when no suffix is given.  (No extglob: it may be off.)
_accelsizer_files() {
	local cur=$1 IFS=$'\n' ext
	shift
	if (($#)); then
		COMPREPLY=($(compgen -d -- "$cur"))
		for ext; do
			COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
		done
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	compopt -o filenames 2>/dev/null
}

_accelsizer_dirs() {
	local IFS=$'\n'
	COMPREPLY=($(compgen -d -- "$1"))
	compopt -o filenames 2>/dev/null
}

_accelsizer() {
	local cur prev cword=$COMP_CWORD
	cur=${COMP_WORDS[cword]}
	prev=${COMP_WORDS[cword - 1]}
	COMPREPLY=()

	# "--model=ll" arrives as "--model" "=" "ll" (COMP_WORDBREAKS has '='),
	# or as one word when it does not.
	if [[ $cur == "=" ]]; then
		prev=${COMP_WORDS[cword - 1]}
		cur=""
	elif [[ $prev == "=" && cword -ge 2 ]]; then
		prev=${COMP_WORDS[cword - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi

	local prog cmd="" sub="" catalog="" i w
	prog=$(_accelsizer_prog)
	for ((i = 1; i < cword; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--catalog)
			catalog=${COMP_WORDS[i + 1]}
			[[ $catalog == "=" ]] && catalog=${COMP_WORDS[i + 2]}
			;;
		--catalog=*) catalog=${w#--catalog=} ;;
		-*) ;;
		*)
			if [[ -z $cmd ]]; then
				[[ " $_accelsizer_commands " == *" $w "* ]] && cmd=$w
			elif [[ $cmd == catalog && -z $sub ]]; then
				case $w in list | show | check) sub=$w ;; esac
			fi
			;;
		esac
	done
	[[ $catalog == "~/"* ]] && catalog=$HOME/${catalog#"~/"}

	local values=""
	case $prev in
	--workload) values=$_accelsizer_workloads ;;
	--precision | --kv-precision) values=$_accelsizer_precisions ;;
	--recompute) values=$_accelsizer_recomputes ;;
	--method) values=$_accelsizer_methods ;;
	--stack) values=$_accelsizer_stacks ;;
	--serving-stack) values=$_accelsizer_serving_stacks ;;
	--training-stack) values=$_accelsizer_training_stacks ;;
	--form-factor) values=$_accelsizer_forms ;;
	--objective) values=$_accelsizer_objectives ;;
	--format)
		values=$_accelsizer_formats
		[[ $cmd == proposal ]] && values=$_accelsizer_proposal_formats
		;;
	--concurrency) values=max ;;
	--support-years) values="3 5 default" ;;
	--role) values="calibration validation all" ;;
	--model) values=$(_accelsizer_ids "$prog" "$catalog" --models) ;;
	--draft-model) values="mtp $(_accelsizer_ids "$prog" "$catalog" --models)" ;;
	--accelerator) values=$(_accelsizer_ids "$prog" "$catalog") ;;
	--platform) values="auto $(_accelsizer_ids "$prog" "$catalog" --platforms)" ;;
	--theme)
		COMPREPLY=($(compgen -W "$_accelsizer_themes" -- "$cur"))
		[[ $cur == */* || $cur == .* ]] && _accelsizer_files "$cur" yaml
		return 0
		;;
	--catalog)
		_accelsizer_dirs "$cur"
		return 0
		;;
	--scenario)
		_accelsizer_files "$cur" yaml yml
		return 0
		;;
	--prices)
		_accelsizer_files "$cur" csv
		return 0
		;;
	--model-config)
		_accelsizer_files "$cur" json
		return 0
		;;
	-o | --output | --summary | --elevation)
		if [[ $cmd == proposal ]]; then
			_accelsizer_files "$cur" html htm md markdown
		else
			_accelsizer_files "$cur"
		fi
		return 0
		;;
	esac
	# sweep's axes take comma-separated lists: complete the last item.
	case $prev in
	--models) values=$(_accelsizer_ids "$prog" "$catalog" --models) ;;
	--precisions) values=$_accelsizer_precisions ;;
	esac
	if [[ $prev == --models || $prev == --precisions ]]; then
		local head=""
		[[ $cur == *,* ]] && head=${cur%,*},
		COMPREPLY=($(compgen -P "$head" -W "$values" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return 0
	fi
	if [[ -n $values ]]; then
		COMPREPLY=($(compgen -W "$values" -- "$cur"))
		return 0
	fi
	# Any other option that takes a value (numbers, ranges): nothing to
	# offer rather than a misleading list of options.
	if [[ $prev == --* ]] &&
		"$prog" ${cmd:+"$cmd"} --help 2>/dev/null |
		grep -qE "(^|[[:space:]])$prev[ =][A-Z]"; then
		return 0
	fi

	if [[ $cmd == catalog ]]; then
		case $sub in
		"")
			if [[ $cur == -* ]]; then
				COMPREPLY=($(compgen -W "$(_accelsizer_options "$prog" catalog)" -- "$cur"))
			else
				COMPREPLY=($(compgen -W "list show check" -- "$cur"))
			fi
			;;
		list)
			COMPREPLY=($(compgen -W "--models --platforms --fabrics --defaults --catalog --help" -- "$cur"))
			;;
		show)
			if [[ $cur == -* ]]; then
				COMPREPLY=($(compgen -W "--catalog --help" -- "$cur"))
			else
				local ids
				ids="$(_accelsizer_ids "$prog" "$catalog") $(_accelsizer_ids "$prog" "$catalog" --models)"
				ids+=" $(_accelsizer_ids "$prog" "$catalog" --platforms)"
				ids+=" $(_accelsizer_ids "$prog" "$catalog" --fabrics) defaults"
				COMPREPLY=($(compgen -W "$ids" -- "$cur"))
			fi
			;;
		check)
			if [[ $cur == -* ]]; then
				COMPREPLY=($(compgen -W "--catalog --help" -- "$cur"))
			else
				_accelsizer_dirs "$cur"
			fi
			;;
		esac
		return 0
	fi

	# compare's arguments are scenario files
	if [[ $cmd == compare && $cur != -* ]]; then
		_accelsizer_files "$cur" yaml yml
		return 0
	fi
	if [[ -z $cmd && $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$_accelsizer_commands" -- "$cur"))
		return 0
	fi
	COMPREPLY=($(compgen -W "$(_accelsizer_options "$prog" "$cmd")" -- "$cur"))
	return 0
}

complete -F _accelsizer accelsizer
