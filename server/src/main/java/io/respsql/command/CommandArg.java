package io.respsql.command;

import java.util.List;

/**
 * One argument of a command as {@code COMMAND DOCS} describes it (Redis 7's argument map): what
 * redis-cli turns into the typing hints it shows after a command's name. {@code type} is one of
 * Redis's argument types: {@code string}, {@code integer}, {@code double}, {@code key},
 * {@code pattern}, {@code pure-token}, {@code block} (the {@code arguments} in sequence) or
 * {@code oneof} (one of the {@code arguments}).
 */
public record CommandArg(String name, String type, String token, String since, boolean isOptional, boolean isMultiple,
                         List<CommandArg> arguments) {

    public static CommandArg of(String name, String type) {
        return new CommandArg(name, type, null, null, false, false, List.of());
    }

    public static CommandArg string(String name) {
        return of(name, "string");
    }

    public static CommandArg integer(String name) {
        return of(name, "integer");
    }

    /** A keyword alone, e.g. {@code IF EXISTS}. */
    public static CommandArg pureToken(String name, String token) {
        return of(name, "pure-token").token(token);
    }

    public static CommandArg block(String name, CommandArg... args) {
        return new CommandArg(name, "block", null, null, false, false, List.of(args));
    }

    public static CommandArg oneof(String name, CommandArg... args) {
        return new CommandArg(name, "oneof", null, null, false, false, List.of(args));
    }

    /** The keyword that comes before the value, e.g. {@code WHERE}. */
    public CommandArg token(String t) {
        return new CommandArg(name, type, t, since, isOptional, isMultiple, arguments);
    }

    public CommandArg since(String version) {
        return new CommandArg(name, type, token, version, isOptional, isMultiple, arguments);
    }

    public CommandArg optional() {
        return new CommandArg(name, type, token, since, true, isMultiple, arguments);
    }

    public CommandArg multiple() {
        return new CommandArg(name, type, token, since, isOptional, true, arguments);
    }
}
