#!/bin/sh
# Issue 19 in the wizard: the model pick list offers the new models, the
# precision list offers mxfp4, and step 3 ranks the new accelerators, as a
# person sees them at 120x40.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40 --scenario "$SCENARIO"
check_screen "wizard opens" "Input tokens"

# Class, then Model: Enter opens the pick list
tui_keys Down Enter
check_screen "the model pick list opens" "Model search:"
for q in "gpt-oss:gpt-oss-120b" "gpt-oss:gpt-oss-20b" "deepseek-r1:DeepSeek-R1" \
	"qwen3:Qwen3-235B-A22B" "qwen3:Qwen3-32B" "llama 4:Llama 4 Scout 17B-16E" \
	"llama 4:Llama 4 Maverick 17B-128E" "kimi:Kimi K2"; do
	typed=${q%%:*} name=${q#*:}
	tui_keys C-u
	tui_type "$typed"
	check_screen "pick list: '$typed' finds $name" "$name"
done
tui_keys C-u
tui_type "gpt-oss-120"
tui_keys Enter
check_screen_re "gpt-oss-120b picked" "Model +gpt-oss-120b"
check_screen "its line shows the MoE shapes" "5.1B active), 36 layers"

# Precision: fp16 -> fp8 -> int8 -> int4 -> fp4 -> mxfp4
tui_keys Down Right Right Right Right Right
check_screen_re "the precision list offers mxfp4" "Precision +. ?mxfp4"

tui_keys 3
check_screen "step 3" "Ranked by"
tui_screen
for a in "B300 288GB" "RTX PRO 6000 Bla" "Instinct MI355X" "Instinct MI350X"; do
	check "step 3 ranks $a" contains "$screen" "$a"
done
# mxfp4 quantises the experts only, and a part without fp4 units runs them
# dequantised to bf16 (TensorRT-LLM on Hopper): every part fits
check "every part runs mxfp4" contains "$screen" "20 of 20 fit"
check "a part without fp4 units fits on one GPU" matches "$screen" "A100 80GB PCIe +1 +1 "
# GB300 (no GPU price: after every priced one) is further down
tui_until 'GB300 \(per Black' Down 20
check_screen "step 3 ranks GB300 further down" "GB300 (per Black"

done_testing
