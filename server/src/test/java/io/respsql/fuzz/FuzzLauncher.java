package io.respsql.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.lang.reflect.Method;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * Runs one {@code @FuzzTest} method in a JVM of its own, as Jazzer's fuzzing mode requires (one
 * fuzz test per process), without a Maven run around it: {@code scripts/fuzz.sh} starts one per
 * target with {@code JAZZER_FUZZ=1}. Argument: {@code fully.qualified.Class#method}. Exit status 1
 * when the test failed (a finding), 2 when it did not run.
 */
public final class FuzzLauncher {
    private FuzzLauncher() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        if (args.length != 1 || !args[0].contains("#")) {
            System.err.println("usage: FuzzLauncher fully.qualified.Class#fuzzTestMethod");
            System.exit(2);
        }
        String[] cm = args[0].split("#", 2);
        Class<?> c = Class.forName(cm[0]);
        Method target = null;
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(cm[1]) && m.isAnnotationPresent(FuzzTest.class)) {
                target = m;
            }
        }
        if (target == null) {
            System.err.println("no @FuzzTest method " + args[0]);
            System.exit(2);
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectMethod(c, target)).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);
        TestExecutionSummary s = summary.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        s.printTo(out);
        s.printFailuresTo(out, 40);
        out.flush();
        System.exit(s.getTotalFailureCount() > 0 ? 1 : s.getTestsSucceededCount() > 0 ? 0 : 2);
    }
}
