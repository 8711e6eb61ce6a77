package io.respsql.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Assembles the server's command table from the command families. */
public final class Commands {
    private Commands() {
    }

    /**
     * Applies the configuration file's {@code rename-command} lines: an empty new name removes the
     * command, another name replaces the old one (which is then unknown).
     */
    static List<CommandSpec> renamed(List<CommandSpec> specs, Map<String, String> renames) {
        if (renames.isEmpty()) {
            return specs;
        }
        List<CommandSpec> out = new ArrayList<>();
        for (String from : renames.keySet()) {
            if (specs.stream().noneMatch(s -> s.name().equals(from))) {
                throw new IllegalArgumentException("rename-command: no such command '" + from + "'");
            }
        }
        for (CommandSpec spec : specs) {
            String to = renames.get(spec.name());
            if (to == null) {
                out.add(spec);
            } else if (!to.isEmpty()) {
                out.add(spec.renamed(to));
            }
        }
        return out;
    }

    public static CommandTable standard(ServerContext ctx) {
        List<CommandSpec> specs = new ArrayList<>();
        specs.addAll(ConnectionCommands.specs(ctx));
        specs.addAll(ClientCommands.specs(ctx));
        specs.addAll(CommandCommands.specs(ctx));
        specs.addAll(ConfigCommands.specs(ctx));
        specs.addAll(ServerCommands.specs(ctx));
        specs.addAll(SlowlogCommands.specs(ctx));
        specs.addAll(LatencyCommands.specs(ctx));
        specs.addAll(KeyspaceCommands.specs(ctx));
        specs.addAll(PersistenceCommands.specs(ctx));
        specs.addAll(ReplicationCommands.specs(ctx));
        specs.addAll(SqlCommands.specs(ctx));
        specs.addAll(TransactionCommands.specs(ctx));
        specs.addAll(PubSubCommands.specs(ctx));
        specs.addAll(AclCommands.specs(ctx));
        CommandTable table = new CommandTable(renamed(specs, ctx.config().renamedCommands()));
        ctx.commands(table);
        for (CommandSpec spec : table.all()) { // the commands ACL rules range over, with their categories
            List<String> subs = new ArrayList<>();
            if (spec.subcommands() != null) {
                for (CommandSpec sub : spec.subcommands().all()) {
                    subs.add(sub.fullName());
                    ctx.acl().addCommand(sub.fullName(), sub.aclCategories(), null);
                }
            }
            ctx.acl().addCommand(spec.fullName(), spec.aclCategories(), subs);
        }
        return table;
    }
}
