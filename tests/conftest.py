"""pytest's set-up for the whole suite: the disk cache of machine code in a folder of this run
(`GPUIR_CACHE_DIR`, which the suite's subprocesses inherit, xdist's workers included), never the
user's, and no native executables kept in it (`GPUIR_NATIVE=0`, but in `tests/test_native.py`);
and the `slow` mark on the tests that `make test-quick` leaves out (`SLOW`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest

_made: list[str] = []
_servers: list[subprocess.Popen[bytes]] = []

SLOW = frozenset(
    {
        "test_api.py::test_a_pipeline_may_name_any_registered_pass",
        "test_api.py::test_a_plugin_pass_works_from_the_api",
        "test_api.py::test_an_installed_plugin_is_found_by_its_entry_point",
        "test_atomics.py::test_every_float_kind_on_shared_memory_folds_each_groups_values",
        "test_atomics.py::test_the_histogram_counts_exactly_what_bincount_counts",
        "test_bench_peak.py::test_rows_of_different_sizes_report_different_peaks",
        "test_buffer_print_floats.py::test_buffer_print_matches_glibc",
        "test_buffer_print_floats.py::test_gpu_run_prints_glibc_text",
        "test_check_semantics.py::test_no_false_alarm_on_the_examples",
        "test_check_semantics.py::test_no_false_alarm_on_the_run_programs",
        "test_collective_schedule.py::test_every_node_of_the_tree_is_visited_once",
        "test_collective_schedule.py::test_warp_scan_is_the_inclusive_scan",
        "test_compiled_host.py::test_compiled_host_prints_what_the_interpreted_host_prints",
        "test_cpu_check.py::test_a_clean_launch_gives_the_results_and_is_not_run_again",
        "test_cpu_check.py::test_a_full_table_of_records_makes_an_access_suspect_and_never_hangs",
        "test_cpu_check.py::test_checked_cpu_prints_what_interp_prints",
        "test_cpu_check.py::test_clean_programs_agree_with_interp_and_run_once",
        "test_cpu_check.py::test_every_planted_bug_is_found_in_interps_words",
        "test_cpu_check.py::test_without_a_c_compiler_check_says_so",
        "test_cpu_faults.py::test_a_fault_outside_a_kernel_still_kills_the_process",
        "test_cpu_faults.py::test_gpu_run_reports_an_overrun_without_dying",
        "test_cpu_pool.py::test_a_child_process_after_fork_still_launches",
        "test_cpu_provider.py::test_collectives_are_bit_identical_to_interp",
        "test_cpu_provider.py::test_cpu_prints_what_interp_prints",
        "test_cpu_provider.py::test_engines_freed_from_the_cache_leave_the_others_working",
        "test_cpu_streaming.py::test_no_stream_entry_is_taken_where_its_stores_are_not_aligned_or_checked",
        "test_cpu_streaming.py::test_only_the_stream_entry_stores_non_temporally_and_only_to_the_write_only_output",
        "test_cpu_streaming.py::test_results_are_the_same_with_and_without_streaming",
        "test_cpu_streaming.py::test_the_stream_entry_is_taken_for_a_large_aligned_launch_only",
        "test_cuda_device.py::test_gpu_run_without_a_device_exits_non_zero",
        "test_dialect_reference.py::test_the_reference_is_up_to_date",
        "test_differential.py::test_a_pass_is_checked_on_generated_programs",
        "test_differential.py::test_cpu_agrees_with_interp",
        "test_disk_cache.py::test_a_damaged_entry_is_compiled_again",
        "test_disk_cache.py::test_a_second_process_reuses_the_entries",
        "test_disk_cache.py::test_a_warm_cache_runs_as_a_cold_one",
        "test_disk_cache.py::test_other_options_are_other_entries",
        "test_disk_cache.py::test_runs_started_together_share_one_entry_per_module",
        "test_disk_cache.py::test_the_cache_can_be_turned_off",
        "test_dlpack.py::test_numpy_reads_the_capsule_without_a_copy_and_releases_it",
        "test_forkserver.py::test_a_call_answers_what_a_process_answers",
        "test_forkserver.py::test_a_killed_caller_takes_its_call_with_it",
        "test_fusion.py::test_map_chain_fused_and_unfused_print_the_same",
        "test_fusion.py::test_random_chains_are_bit_identical",
        "test_fuzz.py::test_a_crash_or_a_long_run_costs_one_worker_not_the_campaign",
        "test_fuzz.py::test_fuzz_ci_run",
        "test_fuzz.py::test_the_corpus_is_the_lit_tests_and_the_examples",
        "test_gpu_opt_cli.py::test_a_long_string_left_open_is_an_error_at_once",
        "test_gpu_opt_cli.py::test_bad_input_is_a_diagnostic",
        "test_gpu_opt_cli.py::test_closed_stdout_is_not_a_traceback",
        "test_gpu_opt_cli.py::test_empty_input_is_an_empty_module",
        "test_gpu_opt_cli.py::test_file_without_extension_is_mlir",
        "test_gpu_opt_cli.py::test_help_and_version",
        "test_gpu_opt_cli.py::test_internal_error_is_one_line_unless_debugging",
        "test_gpu_opt_cli.py::test_targets_for_xdsls_own_dialects_are_not_offered",
        "test_gpu_opt_startup.py::test_llvm_extension_ops_are_imported_only_for_llvm_input",
        "test_gpu_reduce.py::test_eighty_ops_reduce_to_fifteen_percent_in_five_minutes",
        "test_gpu_reduce.py::test_interrupt_keeps_the_best_so_far",
        "test_gpu_reduce.py::test_reduced_program_verifies_is_interesting_and_deterministic",
        "test_import_upstream.py::test_an_imported_program_prints_what_the_same_program_in_gpuir_prints",
        "test_index_bitwidth.py::test_cpu_with_32_bit_index_prints_what_interp_prints",
        "test_index_bitwidth.py::test_gpu_run_selects_the_index_bitwidth",
        "test_index_bitwidth.py::test_index_arithmetic_wraps_at_the_index_bitwidth",
        "test_kernel_printf.py::test_a_launch_that_prints_more_than_the_buffer_holds_is_cut_with_a_warning",
        "test_launch_allocations.py::test_launches_keep_no_memory_and_allocate_nothing",
        "test_launch_allocations.py::test_the_measure_sees_a_launch_that_keeps_memory",
        "test_layers.py::test_attribute_names_have_one_definition",
        "test_layers.py::test_lowering_targets_do_not_import_each_other",
        "test_layers.py::test_no_module_imports_a_higher_layer",
        "test_layers.py::test_no_two_modules_import_each_other",
        "test_layers.py::test_runtime_providers_do_not_import_each_other",
        "test_layers.py::test_the_check_sees_the_layers",
        "test_line_info.py::test_a_file_name_ptx_cannot_hold_is_written_plain",
        "test_line_info.py::test_line_info_false_leaves_it_out",
        "test_line_info.py::test_llvm_ir_with_line_info_compiles_with_llc",
        "test_line_info.py::test_ptx_with_line_info_assembles",
        "test_lit_config.py::test_a_broken_test_fails",
        "test_lit_config.py::test_an_out_of_tree_suite_passes",
        "test_mma.py::test_rounded_sums_are_bit_identical_on_both_providers",
        "test_mma.py::test_small_integers_give_numpys_product_on_both_providers",
        "test_mlir_export.py::test_mlir_compiles_the_export_to_ptx_of_the_same_registers",
        "test_op_coverage.py::test_every_op_reaches_every_backend",
        "test_pass_manager.py::test_every_pass_that_declares_it_leaves_the_examples_as_they_are",
        "test_print_memref.py::test_gpu_run_prints_what_the_formatter_says",
        "test_print_memref.py::test_mlir_runner_prints_the_same",
        "test_print_memref.py::test_vector_print_of_scalars_prints_what_mlir_runner_prints",
        "test_runtime_interp.py::test_words_report_every_race_as_bytes_do",
        "test_runtime_interp.py::test_a_warps_collective_accesses_race_only_with_other_agents",
        "test_runtime_interp.py::test_a_group_whose_threads_do_not_fit_in_memory_is_an_error_at_the_launch",
        "test_native.py::test_the_third_run_is_native_and_prints_what_the_first_did",
        "test_native.py::test_the_warm_path_runs_the_kept_executable",
        "test_native.py::test_a_damaged_executable_is_rebuilt",
        "test_native.py::test_errors_and_unusual_arguments_fall_back_to_the_cold_run",
        "test_native.py::test_scalars_print_as_numpy_prints_them",
        "test_native.py::test_an_emitted_executable_runs_alone_as_gpu_run_does",
        "test_native.py::test_programs_that_cannot_be_native_say_why",
        "test_native.py::test_an_emitted_executable_reports_kernel_errors_as_gpu_run_does",
    }
)
"""The tests (every parametrization of each) that take a quarter of a second or more each, or
four seconds or more in all, on a 2-core machine, found with `pytest --durations=0`: `make test-quick` (`pytest -m "not slow"`) leaves them out;
`make test` runs them. Whole programs through several providers, examples at their full size,
reducers and fuzzers, ptxas and llc runs, subprocesses of the tools."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("[")[0].removeprefix("tests/") in SLOW:
            item.add_marker(pytest.mark.slow)


def pytest_configure(config: pytest.Config) -> None:
    # No native executables kept on the side of the suite's runs (a C compile and link each,
    # for the third run of a program, which tests run in-process and never take):
    # tests/test_native.py, whose subject they are, builds its environments without it.
    os.environ.setdefault("GPUIR_NATIVE", "0")
    if "GPUIR_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="gpuir-pytest-cache-")
        _made.append(folder)
        os.environ["GPUIR_CACHE_DIR"] = folder
    if not hasattr(config, "workerinput"):  # the session's first process, before xdist's workers
        start_tool_server()


def start_tool_server() -> None:
    """The tools' fork server for the whole session, as lit's configuration starts one: a test's
    `gpu-opt` or `gpu-run` process then starts in milliseconds (xdist's workers inherit its
    socket's name). `GPUIR_TOOL_SERVER=0` turns it off; a test that needs a plain process passes
    an environment without it."""
    from gpuir.tools.forkserver import start_server
    from gpuir.tools.launch import SERVER_ENV

    if SERVER_ENV in os.environ:
        if os.environ[SERVER_ENV] == "0":
            del os.environ[SERVER_ENV]
        return
    folder = tempfile.mkdtemp(prefix="gpuir-pytest-tools-")
    _made.append(folder)
    server, os.environ[SERVER_ENV] = start_server(folder)
    _servers.append(server)


def pytest_unconfigure() -> None:
    from gpuir.tools.forkserver import stop_server

    for server in _servers:
        stop_server(server)
    for folder in _made:
        shutil.rmtree(folder, ignore_errors=True)
