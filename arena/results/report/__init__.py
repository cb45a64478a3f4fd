"""The results shown: the HTML report (its game browser, the bots' logs, a comparison's section), the
plots, and the report's templates."""
