package io.respsql.command;

import java.util.ArrayList;
import java.util.List;

/** Assembles the server's command table from the command families. */
public final class Commands {
    private Commands() {
    }

    public static CommandTable standard(ServerContext ctx) {
        List<CommandSpec> specs = new ArrayList<>();
        specs.addAll(ConnectionCommands.specs(ctx));
        specs.addAll(ClientCommands.specs(ctx));
        specs.addAll(CommandCommands.specs(ctx));
        specs.addAll(ConfigCommands.specs(ctx));
        specs.addAll(ServerCommands.specs(ctx));
        specs.addAll(SqlCommands.specs(ctx));
        CommandTable table = new CommandTable(specs);
        ctx.commands(table);
        return table;
    }
}
