import ChatDomain
import Testing

@Suite struct ShellCommandTextTests {
    @Test(arguments: [
        ("find . -size +100M", "find . -size +100M"),
        ("  find . -size +100M \n", "find . -size +100M"),
        ("```bash\nfind . -size +100M\n```", "find . -size +100M"),
        ("Here it is:\n```sh\n$ du -sh *\n```\nThat lists sizes.", "du -sh *"),
        ("`ls -la`", "ls -la"),
        ("$ ls -la", "ls -la"),
        ("for f in *; do\n  echo \"$f\"\ndone", "for f in *; do\n  echo \"$f\"\ndone"),
        ("echo `date`", "echo `date`"),
        ("```\n```", ""),
        ("", ""),
    ])
    func theCommandInAnAnswer(answer: String, command: String) {
        #expect(ShellCommandText.command(in: answer) == command)
    }
}
