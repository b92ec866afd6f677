"""Training the learned bots (the optional extra ``learn``: PyTorch): the data of expert decisions, the training
loop and the export of weights to the NumPy file the bot reads. The bots themselves never import this package."""
