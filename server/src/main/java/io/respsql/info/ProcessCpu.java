package io.respsql.info;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code INFO cpu}: the CPU time the process (and its waited-for children) spent in the kernel and
 * in user space, in seconds, as Redis reports it from {@code getrusage}. On Linux it is read from
 * {@code /proc/self/stat}, whose times are in USER_HZ ticks (100 per second on every Linux
 * architecture's user ABI); elsewhere the JVM's process CPU time is all that is known and counted
 * as user time. The {@code _main_thread} fields are the calling thread's: INFO runs on the event
 * loop, the thread that runs every command, as Redis's main thread.
 */
final class ProcessCpu {
    private static final Path STAT = Path.of("/proc/self/stat");
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessCpu() {
    }

    static void write(StringBuilder sb) {
        double[] t = processTimes();
        sb.append("# CPU\r\n");
        seconds(sb, "used_cpu_sys", t[0]);
        seconds(sb, "used_cpu_user", t[1]);
        seconds(sb, "used_cpu_sys_children", t[2]);
        seconds(sb, "used_cpu_user_children", t[3]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads.isCurrentThreadCpuTimeSupported()) {
            long cpu = threads.getCurrentThreadCpuTime();
            long user = threads.getCurrentThreadUserTime();
            seconds(sb, "used_cpu_sys_main_thread", Math.max(0, cpu - user) / 1e9);
            seconds(sb, "used_cpu_user_main_thread", user / 1e9);
        }
    }

    /** sys, user, children's sys, children's user, in seconds. */
    static double[] processTimes() {
        try {
            String stat = new String(Files.readAllBytes(STAT), StandardCharsets.US_ASCII);
            // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
            // f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14 to 17.
            return new double[] {
                Long.parseLong(f[12]) / TICKS_PER_SECOND, Long.parseLong(f[11]) / TICKS_PER_SECOND,
                Long.parseLong(f[14]) / TICKS_PER_SECOND, Long.parseLong(f[13]) / TICKS_PER_SECOND};
        } catch (IOException | RuntimeException e) {
            java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            long nanos = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
            return new double[] {0, Math.max(0, nanos) / 1e9, 0, 0};
        }
    }

    private static void seconds(StringBuilder sb, String name, double v) {
        sb.append(name).append(':').append(String.format(Locale.ROOT, "%.6f", v)).append("\r\n");
    }
}
