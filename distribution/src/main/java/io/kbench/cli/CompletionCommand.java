package io.kbench.cli;

import java.util.concurrent.Callable;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/** {@code kbench completion}: the bash (and zsh) completion script picocli generates from kbench's commands. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a completion script for bash and zsh: commands, options and their values.",
            "",
            "bash: source <(kbench completion), or save it as /etc/bash_completion.d/kbench (or ~/.local/share/bash-completion/completions/kbench).",
            "zsh: autoload -U +X compinit && compinit; autoload -U +X bashcompinit && bashcompinit; source <(kbench completion)."})
final class CompletionCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.print(AutoComplete.bash("kbench", Main.commandLine()));
        System.out.flush();
        return 0;
    }
}
