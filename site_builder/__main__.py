from site_builder.cli import console

console()
