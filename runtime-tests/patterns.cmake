# The runtime-test manifest: one line per bug pattern.
#
#   rt_pattern(<launcher> <check-id> <stem> <designed-fix> <fixed-by>)
#
# <stem>          kernels/<check-id>/<stem>.cu is the buggy source;
#                 kernels/<check-id>/fixed/<stem>.cu the hand-written fix.
# <designed-fix>  FIXIT: warp-lint is to attach a fix-it for this pattern;
#                 NOTE:  the fix needs judgment, warp-lint gives it as a note
#                        (the hand-written kernel is the fix, for good).
# <fixed-by>      TOOL: the fixed kernel is generated at build time by
#                       `warp-lint --fix --checks=<check-id>` on a copy of the
#                       buggy source (needs the warp-lint target);
#                 HAND: kernels/<check-id>/fixed/<stem>.cu.
#
# To switch a pattern to the tool's fix once its fix-it lands, change HAND to
# TOOL here (or configure with -DWARP_LINT_RT_TOOL_FIXES=ALL to try every
# FIXIT pattern). A TOOL pattern also gets a CTest `runtime.static.<launcher>`
# that needs no GPU: the fix changed the file, is idempotent, and leaves no
# finding of the same check.
#
#          launcher                        check-id                     stem                      designed  fixed-by
rt_pattern(dfm_early_return_reduce         warp-divergent-full-mask     early_return_reduce       NOTE      HAND)
rt_pattern(dfm_ballot_in_branch            warp-divergent-full-mask     ballot_in_branch          FIXIT     TOOL)
rt_pattern(dfm_syncwarp_after_return       warp-divergent-full-mask     syncwarp_after_return     FIXIT     TOOL)
rt_pattern(dfm_helper_in_branch            warp-divergent-full-mask     helper_in_branch          NOTE      HAND)
rt_pattern(stale_activemask_before_branch  warp-stale-mask              activemask_before_branch  FIXIT     TOOL)
rt_pattern(stale_ballot_wrong_side         warp-stale-mask              ballot_wrong_side         FIXIT     TOOL)
rt_pattern(uaa_float_sum_global            warp-uniform-address-atomic  float_sum_global          NOTE      HAND)
rt_pattern(uaa_float_sum_shared            warp-uniform-address-atomic  float_sum_shared          NOTE      HAND)
rt_pattern(uaa_int_slots_global            warp-uniform-address-atomic  int_slots_global          NOTE      HAND)
rt_pattern(uaa_int_slots_shared            warp-uniform-address-atomic  int_slots_shared          NOTE      HAND)
rt_pattern(uaa_int_max_global              warp-uniform-address-atomic  int_max_global            NOTE      HAND)
rt_pattern(uaa_int_max_shared              warp-uniform-address-atomic  int_max_shared            NOTE      HAND)
rt_pattern(uaa_float_sum_converged         warp-uniform-address-atomic  float_sum_converged       FIXIT     TOOL)
rt_pattern(uaa_int_slots_converged         warp-uniform-address-atomic  int_slots_converged       FIXIT     TOOL)
rt_pattern(uaa_int_max_converged           warp-uniform-address-atomic  int_max_converged         FIXIT     TOOL)
rt_pattern(uaa_float_sum_unbraced          warp-uniform-address-atomic  float_sum_unbraced        FIXIT     TOOL)
rt_pattern(spin_stats                      warp-atomic-spinlock         spinlock_stats            FIXIT     TOOL)
rt_pattern(spin_single_rmw                 warp-atomic-spinlock         spinlock_single_rmw       FIXIT     TOOL)
rt_pattern(spin_libcuxx_stats              warp-atomic-spinlock         libcuxx_lock_stats        FIXIT     TOOL)

# Checks whose buggy kernels must be flagged and whose hand-written fixes must
# be clean (`runtime.static.<launcher>`, no GPU needed). Add a check here once
# its implementation is meant to be complete.
set(RT_LINT_CROSSCHECKS "")
rt_pattern(mec_warp_index_broadcast        warp-mask-excludes-caller    warp_index_broadcast      FIXIT     TOOL)
rt_pattern(ssom_down_past_half             warp-shuffle-source-outside-mask down_past_half        NOTE      HAND)
rt_pattern(isync_volatile_warp_sum         warp-implicit-synchronous    volatile_warp_sum         FIXIT     HAND)
rt_pattern(amm_guide_reduction             warp-activemask-mask         guide_reduction           NOTE      HAND)

# Issue 41: one buggy kernel per consequence class (docs/runtime-results.md,
# "Consequence classes"). The class each shows is in the kernel's header.
rt_pattern(dfm_read_absent_half            warp-divergent-full-mask     read_absent_half          NOTE      HAND)
rt_pattern(dfm_exited_lane_min             warp-divergent-full-mask     exited_lane_min           NOTE      HAND)
rt_pattern(dfm_syncwarp_lower_half         warp-divergent-full-mask     syncwarp_lower_half       NOTE      HAND)
rt_pattern(dfm_halves_different_shuffles   warp-divergent-full-mask     halves_different_shuffles NOTE      HAND)
rt_pattern(dfm_lower_half_sum              warp-divergent-full-mask     lower_half_sum            FIXIT     HAND)
rt_pattern(mec_even_lane_pack              warp-mask-excludes-caller    even_lane_pack            FIXIT     HAND)
rt_pattern(isync_pair_argmin_shared        warp-implicit-synchronous    pair_argmin_shared        FIXIT     HAND)
rt_pattern(isync_divergent_publish         warp-implicit-synchronous    divergent_publish         NOTE      HAND)
