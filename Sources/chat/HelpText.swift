import ChatData

/// The text of `chat --help`.
enum HelpText {
    static let usage = """
        chat \(ChatDataVersion.string): talk to any OpenAI-compatible chat API from the terminal.

        Usage:
          chat [options] PROMPT...          ask once; the answer streams to stdout
          COMMAND | chat [options] [PROMPT] piped text is the prompt, or follows PROMPT
          chat [options]                    on a terminal: start the REPL
          chat -i [options] [PROMPT]        start the REPL always (reads lines from stdin if piped)

        Options (before the prompt; every word from the prompt on is prompt text; -- also ends options):
          -m, --model NAME            model to ask (default gpt-4o-mini)
          -s, --system TEXT           system prompt
              --temperature N         sampling temperature, 0 to 2 (default: the server's)
              --max-tokens N          upper bound on answer tokens (sent as max_tokens)
              --base-url URL          API root (default https://api.openai.com/v1)
              --profile NAME          a profile from the config; `local` is built in
              --config PATH           config file (default ~/.config/chat/config.json)
              --no-stream             ask for the whole answer at once
              --connect-timeout SECS  give up connecting after SECS (default 10)
              --idle-timeout SECS     give up when no data arrives for SECS (default 60)
              --retries N             send a failed request again up to N times (default 2)
              --allow-insecure-http   allow sending the API key over plain http to another host
          -v, --verbose               show requests and responses on stderr (secrets hidden)
          -i, --interactive           start the REPL
          -c, --continue              continue the most recently used conversation
              --conversation ID       continue conversation ID (any unique prefix of it)
              --no-history            store nothing for this run (not even input history)
              --list                  list stored conversations, most recently used first
              --search TEXT           find stored conversations that mention TEXT
              --show ID               print a stored conversation
              --export ID             write a stored conversation out (--format markdown|json)
              --delete ID             delete a stored conversation
          -h, --help                  show this help
              --version               show the version

        Environment: OPENAI_API_KEY, OPENAI_BASE_URL, NO_COLOR, XDG_CONFIG_HOME, XDG_DATA_HOME.
        History: $XDG_DATA_HOME/chat/history.sqlite (else ~/.local/share/chat/).
        Exit status: 0 answered, 1 API or network failure, 2 usage or config error,
        130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP).

        """
}
