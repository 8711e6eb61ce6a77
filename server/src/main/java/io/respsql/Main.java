package io.respsql;

import io.respsql.config.ConfigException;
import io.respsql.config.ServerConfig;
import io.respsql.config.Version;
import io.respsql.net.RespSqlServer;
import io.respsql.persist.AofLoadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** {@code respsql-server [config-file] [--name value ...]}: starts the server until SIGTERM/SIGINT. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        // Netty's leak detector samples buffer allocations with a stack trace each; worth it in
        // tests (which keep it on), not on a production server's hot path. -D... overrides.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        ServerConfig config;
        try {
            config = ServerConfig.fromArgs(args);
        } catch (ConfigException e) {
            if (e.exitStatus() == 0) {
                System.out.println(e.getMessage());
            } else {
                System.err.println("respsql-server: " + e.getMessage());
            }
            System.exit(e.exitStatus());
            return;
        }

        Logger log = LoggerFactory.getLogger(Main.class);
        RespSqlServer server;
        try {
            // Listens at once; the data set loads meanwhile (commands that need it: -LOADING).
            server = RespSqlServer.startLoading(config);
        } catch (AofLoadException e) {
            log.error("RespSQL {} failed to start: {}", Version.VERSION, e.getMessage());
            System.exit(1);
            return;
        } catch (UncheckedIOException | IllegalArgumentException e) {
            log.error("RespSQL {} failed to start: {}", Version.VERSION, e.getMessage());
            System.exit(1);
            return;
        }
        // SIGTERM/SIGINT: save as SHUTDOWN would, on the event loop, then exit 0 as Redis does (1
        // when the final save failed). Handled as signals, not in a shutdown hook, because a JVM
        // ended through its hooks exits 143/130 whatever they did. The hook stays for other exits.
        for (String signal : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(signal),
                        s -> new Thread(server::shutdown, "respsql-signal").start());
            } catch (IllegalArgumentException e) {
                log.warn("Cannot handle SIG{} ({}); it ends the JVM through its shutdown hook", signal, e.getMessage());
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "respsql-exit"));
        try {
            server.awaitLoaded(); // a signal or SHUTDOWN meanwhile stops the load: it returns, the server closed
        } catch (AofLoadException | UncheckedIOException | IllegalArgumentException e) {
            log.error("RespSQL {} failed to start: {}", Version.VERSION, e.getMessage());
            System.exit(1);
            return;
        }
        if (server.isClosed()) {
            log.info("RespSQL stopped while loading the data set, bye bye...");
            System.exit(0);
            return;
        }
        // One line with what an operator needs to know about this process, and nothing per request.
        List<String> gcs = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        log.info("RespSQL {} ready on {}:{} (pid {}, config file {}, transport {}, Java {} {}, GC {}, max heap {} MB, "
                        + "maxmemory {} bytes, effective {} bytes, JVM arguments {})",
                Version.VERSION, config.bind(), server.port(), ProcessHandle.current().pid(),
                config.configFile() == null ? "none" : config.configFile(), server.transport(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), String.join(",", gcs),
                Runtime.getRuntime().maxMemory() >> 20, config.maxMemory(), config.effectiveMaxMemory(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        server.awaitTermination();
        log.info("RespSQL is now ready to exit, bye bye...");
        System.exit(server.finalSaveFailed() ? 1 : 0);
    }
}
