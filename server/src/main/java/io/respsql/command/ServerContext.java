package io.respsql.command;

import io.respsql.config.ServerConfig;
import io.respsql.engine.SqlEngine;
import io.respsql.info.InfoReport;
import io.respsql.info.MemoryAccounting;
import io.respsql.info.ServerStats;
import io.respsql.persist.AppendOnlyFile;
import io.respsql.persist.Persistence;
import io.respsql.replication.Replication;
import io.respsql.pubsub.PubSub;
import io.respsql.client.ClientRegistry;
import io.respsql.storage.Catalog;

/** What command handlers may reach: configuration, counters, clients, the catalog and SQL engine. */
public final class ServerContext {
    private final ServerConfig config;
    private final ServerStats stats;
    private final ClientRegistry clients;
    private final Catalog catalog;
    private final SqlEngine sql;
    private final InfoReport info;
    private final Persistence persistence;
    private CommandTable commands;
    private CommandDispatcher dispatcher;
    private MemoryAccounting memory;
    private AppendOnlyFile aof;
    private Replication replication;
    private Runnable stopServer = () -> { };
    private PubSub pubsub = new PubSub();
    private final io.respsql.acl.Acl acl;

    public ServerContext(ServerConfig config, ServerStats stats, ClientRegistry clients, Catalog catalog,
                         SqlEngine sql, InfoReport info, Persistence persistence) {
        this.config = config;
        this.stats = stats;
        this.clients = clients;
        this.catalog = catalog;
        this.sql = sql;
        this.info = info;
        this.persistence = persistence;
        this.acl = new io.respsql.acl.Acl(config::requirePass);
        // as Redis: the connections of a removed user are closed (the one asking, after its reply)
        acl.onDelete(removed -> {
            for (io.respsql.client.Session c : new java.util.ArrayList<>(clients.all())) {
                if (c.user() != null && removed.contains(c.user())) {
                    if (dispatcher != null && dispatcher.currentSession() == c) {
                        c.closeAfterReply();
                    } else {
                        clients.close(c);
                        c.kill();
                    }
                }
            }
        });
    }

    /** ACL users (ACL SETUSER, AUTH user pass, CREATE USER, GRANT). */
    public io.respsql.acl.Acl acl() {
        return acl;
    }

    /** Snapshots: SAVE, BGSAVE, LASTSAVE and what SHUTDOWN saves. */
    public Persistence persistence() {
        return persistence;
    }

    /** Stops the server once the current command has replied (SHUTDOWN); set by the server. */
    public void stopServer(Runnable stop) {
        this.stopServer = stop;
    }

    Runnable stopServer() {
        return stopServer;
    }

    public ServerConfig config() {
        return config;
    }

    public ServerStats stats() {
        return stats;
    }

    public ClientRegistry clients() {
        return clients;
    }

    public Catalog catalog() {
        return catalog;
    }

    public SqlEngine sql() {
        return sql;
    }

    public InfoReport info() {
        return info;
    }

    /** What maxmemory is checked against; null when not checked. */
    public MemoryAccounting memory() {
        return memory;
    }

    public ServerContext memory(MemoryAccounting memory) {
        this.memory = memory;
        return this;
    }

    /** The append-only file (BGREWRITEAOF). */
    public AppendOnlyFile appendOnlyFile() {
        return aof;
    }

    public void appendOnlyFile(AppendOnlyFile aof) {
        this.aof = aof;
    }

    /** Master/replica replication (REPLICAOF, PSYNC, ROLE, WAIT). */
    public Replication replication() {
        return replication;
    }

    public void replication(Replication replication) {
        this.replication = replication;
    }

    /** Channels, patterns and their subscribers. */
    public PubSub pubsub() {
        return pubsub;
    }

    public ServerContext pubsub(PubSub pubsub) {
        this.pubsub = pubsub;
        return this;
    }

    /** The full command table (set once it is built, for COMMAND's introspection). */
    public CommandTable commands() {
        return commands;
    }

    /** Runs the commands of a MULTI block (EXEC); set by the server once it is built. */
    public void dispatcher(CommandDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    CommandDispatcher dispatcher() {
        return dispatcher;
    }

    void commands(CommandTable commands) {
        this.commands = commands;
    }

    private io.respsql.engine.BackgroundQueries background;

    /** Long read-only statements on worker threads (issue 11 §4); null: every statement inline. */
    public io.respsql.engine.BackgroundQueries background() {
        return background;
    }

    public ServerContext background(io.respsql.engine.BackgroundQueries bg) {
        this.background = bg;
        return this;
    }
}
