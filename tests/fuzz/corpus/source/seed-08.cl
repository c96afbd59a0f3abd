_Pragma("x")
