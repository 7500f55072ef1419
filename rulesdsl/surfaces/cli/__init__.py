"""The command line: the commands of `rulesdsl` for profiles, play, simulation and analysis
(assembled with the language server's and the web page's in `rulesdsl.surfaces.main`)."""
